import ChatBridge
import MatrixModel

/// The one message the bot posts in an end-to-end encrypted room when its encryption is off: commands written there
/// never reach it, and without this notice users would type `!help` and hear nothing. It is the only thing the bot
/// ever sends there in clear text: relays and answers for the room wait, queued, until encryption is on.
package enum MatrixEncryptionNotice {
  package static let text =
    "This room is end-to-end encrypted, and my encryption is switched off: I cannot read what is written here, and "
    + "I will send nothing else here rather than write in clear text. Ask my operator to turn encryption on, or talk "
    + "to me in an unencrypted room."

  static var content: JSONValue { MatrixMessageContent.plainContent(text: text, html: nil).json }

  /// Fixed per room, so a resend after a crash (notice accepted, not yet remembered) yields the same event.
  static func transactionID(room: String) -> String { "awfulbot-encryption-notice-\(room)" }
}
