import BotStore
import ChatBridge
import Foundation
import Logging

/// What building or probing a transport may use.
package struct TransportBuildContext: Sendable {
  package var logger: Logger
  /// The bot's database (for transports that keep state, like the Matrix sync token); nil in `check`.
  package var database: BotDatabase?
  /// Where the transport being built is in the config file (`transports[2]`), for messages that name a key.
  package var settingsPath: String?
  /// The bot's data directory (where the database lives): transports keep generated secrets there (the Matrix pickle
  /// key). nil in `check`.
  package var dataDirectory: URL?
  /// `run --reset-matrix-identity`: Matrix transports replace a cross-signing identity this database does not hold.
  package var resetMatrixIdentity: Bool
  /// The forum's own attachments, read through the bot's forum client (`ForumsClientAttachments`); nil in `check`
  /// and wherever no forum client runs: transports then keep them as links.
  package var forumAttachments: (any ForumAttachmentSource)?

  package init(
    logger: Logger = Logger(label: "awfulbot"),
    database: BotDatabase? = nil, settingsPath: String? = nil, dataDirectory: URL? = nil,
    resetMatrixIdentity: Bool = false, forumAttachments: (any ForumAttachmentSource)? = nil
  ) {
    self.forumAttachments = forumAttachments
    self.logger = logger
    self.database = database
    self.settingsPath = settingsPath
    self.dataDirectory = dataDirectory
    self.resetMatrixIdentity = resetMatrixIdentity
  }
}
