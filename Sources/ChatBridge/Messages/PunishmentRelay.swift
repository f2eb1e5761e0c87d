import ForumModel

/// A new entry of the Leper's Colony to show in a room: the sentence (with a probation's length), who was punished,
/// by which moderator, why, and a link to the post that earned it (or, for a row that names no post, to the user's
/// rap sheet). The reason is the forum's rich text: moderators write markup, so each renderer writes it through its
/// own safe path, never as HTML taken from the page.
package struct PunishmentRelay: Sendable, Hashable, Codable {
  /// The row's type as the forum names it: "probation", "ban", "autoban", "permaban" (renderers write it in capitals).
  package var sentence: String
  /// How long a probation lasts ("6 hours"), when the forum says.
  package var probationLength: String?
  package var user: String
  package var moderator: String
  package var reason: [RichText]
  package var date: ChatDate?
  /// The post that earned it, or the user's rap sheet when the row names no post.
  package var link: String
  /// Whether `link` opens the post (false: the rap sheet).
  package var linksPost: Bool
  /// About how many characters of the reason to show; the rest is behind the link.
  package var excerptLength: Int

  package init(
    sentence: String, probationLength: String?, user: String, moderator: String, reason: [RichText], date: ChatDate?,
    link: String, linksPost: Bool, excerptLength: Int
  ) {
    self.sentence = sentence
    self.probationLength = probationLength
    self.user = user
    self.moderator = moderator
    self.reason = reason
    self.date = date
    self.link = link
    self.linksPost = linksPost
    self.excerptLength = excerptLength
  }
}
