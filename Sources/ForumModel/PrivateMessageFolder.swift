import Foundation

/// `private.php?folderid=N`, scraped.
package struct PrivateMessageFolder: Sendable, Hashable, Codable {
  /// A folder in the "Jump to folder" menu (`0` Inbox, `-1` Sent Items, custom folders positive).
  package struct Entry: Sendable, Hashable, Codable {
    package var id: String
    package var name: String

    package init(id: String, name: String) {
      self.id = id
      self.name = name
    }
  }

  /// One row of the listing.
  package struct Message: Sendable, Hashable, Codable {
    package var id: String
    package var subject: String
    package var sender: ForumUserReference?
    package var sentDate: Date?
    package var sentDateRaw: String?
    package var icon: ThreadTag?
    /// The icon's alt text ("Something about sex"), when it has one.
    package var iconAlt: String?
    package var status: PrivateMessageStatus

    package init(
      id: String, subject: String, sender: ForumUserReference?, sentDate: Date?, sentDateRaw: String?,
      icon: ThreadTag? = nil, iconAlt: String? = nil, status: PrivateMessageStatus
    ) {
      self.id = id
      self.subject = subject
      self.sender = sender
      self.sentDate = sentDate
      self.sentDateRaw = sentDateRaw
      self.icon = icon
      self.iconAlt = iconAlt
      self.status = status
    }
  }

  package var folders: [Entry]
  /// The selected folder of the menu.
  package var current: Entry?
  /// The forum lists only the last 50 messages unless asked for all (`div.pmwarn` with a "showall" link).
  package var isOnlyShowingLastFiftyMessages: Bool
  package var messages: [Message]
  /// The account's probation, when the page carries the banner.
  package var probation: Probation?

  package init(
    folders: [Entry], current: Entry?, isOnlyShowingLastFiftyMessages: Bool, messages: [Message],
    probation: Probation? = nil
  ) {
    self.folders = folders
    self.current = current
    self.isOnlyShowingLastFiftyMessages = isOnlyShowingLastFiftyMessages
    self.messages = messages
    self.probation = probation
  }
}
