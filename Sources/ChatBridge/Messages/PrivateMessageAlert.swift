import ForumModel

/// A private message that reached the bot account, told in the rooms configured for it: who sent it, its subject
/// and the link to it (which only the bot account can open). The text is there only when the configuration asks
/// for excerpts (`privateMessages.excerpt`); otherwise the alert names the message without quoting it.
package struct PrivateMessageAlert: Sendable, Hashable, Codable {
  package var id: String
  package var subject: String
  /// The sender's username; nil when the forum shows none.
  package var sender: String?
  package var date: ChatDate?
  package var link: String
  /// The message's text, nil unless excerpts are on.
  package var body: [RichText]?
  package var excerptLength: Int

  package init(
    id: String, subject: String, sender: String?, date: ChatDate?, link: String, body: [RichText]?,
    excerptLength: Int
  ) {
    self.id = id
    self.subject = subject
    self.sender = sender
    self.date = date
    self.link = link
    self.body = body
    self.excerptLength = excerptLength
  }
}
