import Foundation

/// `banlist.php` (the Leper's Colony, or one user's rap sheet), scraped.
package struct LepersColonyPage: Sendable, Hashable, Codable {
  /// What the punishment was, by the first column's text.
  package enum Sentence: String, Sendable, Hashable, Codable {
    case probation
    case autoban
    case permaban
    case ban
  }

  package struct Punishment: Sendable, Hashable, Codable {
    package var sentence: Sentence
    /// The post that earned it, when linked.
    package var postID: String?
    package var date: Date?
    package var dateRaw: String
    package var subject: ForumUserReference
    package var reasonHTML: String
    package var requester: ForumUserReference?
    package var approver: ForumUserReference?

    package init(
      sentence: Sentence, postID: String?, date: Date?, dateRaw: String, subject: ForumUserReference,
      reasonHTML: String, requester: ForumUserReference?, approver: ForumUserReference?
    ) {
      self.sentence = sentence
      self.postID = postID
      self.date = date
      self.dateRaw = dateRaw
      self.subject = subject
      self.reasonHTML = reasonHTML
      self.requester = requester
      self.approver = approver
    }
  }

  package var punishments: [Punishment]

  package init(punishments: [Punishment]) {
    self.punishments = punishments
  }
}
