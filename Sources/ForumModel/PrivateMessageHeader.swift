import Foundation

/// One row of the bot account's private-message inbox, as the `Forum` seam gives it: what an alert and `pms` show.
package struct PrivateMessageHeader: Sendable, Hashable {
  package var id: String
  package var subject: String
  /// The sender's username; nil when the forum shows none.
  package var sender: String?
  package var sentDate: Date?
  /// The forum still shows it as new (`newpm.gif`): nobody opened it on the forum yet.
  package var isUnread: Bool

  package init(id: String, subject: String, sender: String?, sentDate: Date?, isUnread: Bool) {
    self.id = id
    self.subject = subject
    self.sender = sender
    self.sentDate = sentDate
    self.isUnread = isUnread
  }
}

/// One private message with its text, as the `Forum` seam gives it (reading it marks it read on the forum).
package struct PrivateMessageContent: Sendable, Hashable {
  package var id: String
  package var subject: String
  package var sender: String?
  package var sentDate: Date?
  package var body: [RichText]

  package init(id: String, subject: String, sender: String?, sentDate: Date?, body: [RichText]) {
    self.id = id
    self.subject = subject
    self.sender = sender
    self.sentDate = sentDate
    self.body = body
  }
}
