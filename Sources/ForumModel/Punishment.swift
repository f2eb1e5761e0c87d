import Foundation

/// One row of the Leper's Colony (`banlist.php`): who was punished, how, by whom, why, and for which post.
/// The forum gives a row no id of its own; `identity` is what tells two rows apart.
package struct Punishment: Sendable, Hashable, Codable {
  /// The row's type column, as the forum writes it.
  package enum Sentence: String, Sendable, Hashable, Codable {
    case probation, ban, autoban, permaban
  }

  package var sentence: Sentence
  /// How long a probation lasts, as the reason states it ("6 hours", "1 month"); nil for other sentences or when the
  /// reason does not say.
  package var probationLength: String?
  /// When the punishment was given (the forum writes minutes, in its own zone).
  package var date: Date
  /// The post that earned it, when the row links one.
  package var postID: String?
  /// The punished user ("Horrible Jerk").
  package var subject: ForumUserReference
  /// The reason as the forum wrote it (HTML: moderators may use markup), and as rich text.
  package var reasonHTML: String
  @RichTextBody package var reason: [RichText]
  /// The moderator who asked for it.
  package var requester: ForumUserReference
  /// The admin who approved it; nil when the column is empty.
  package var approver: ForumUserReference?

  package init(
    sentence: Sentence, probationLength: String? = nil, date: Date, postID: String?, subject: ForumUserReference,
    reasonHTML: String, reason: [RichText], requester: ForumUserReference, approver: ForumUserReference?
  ) {
    self.sentence = sentence
    self.probationLength = probationLength
    self.date = date
    self.postID = postID
    self.subject = subject
    self.reasonHTML = reasonHTML
    self.reason = reason
    self.requester = requester
    self.approver = approver
  }
}

/// One page of the Leper's Colony or of one user's rap sheet, newest first.
package struct LepersColonyPage: Sendable, Hashable, Codable {
  package var punishments: [Punishment]
  /// Where the page sits; nil when the page shows no page list (a rap sheet of one page).
  package var navigation: PageNavigation?

  package init(punishments: [Punishment], navigation: PageNavigation?) {
    self.punishments = punishments
    self.navigation = navigation
  }
}
