import ForumModel
import Foundation

/// A Leper's Colony row has no id on the forum: the engine knows one by a hash of what the row never changes — the
/// sentence, when it was given (to the minute, as the forum prints it), who was punished, the post, and the
/// moderator who asked for it. Users by id where the row links one (a name can change), else by name. Not the reason
/// (a moderator may edit it) nor the approver (filled in later).
enum PunishmentIdentity {
  /// The scheme of the identities stored; a change makes the engine record the current page again unrelayed.
  static let scheme = "1"

  static func of(_ punishment: Punishment) -> String {
    // The date came from a page: a value no Int holds (a date the scraper let through) is named by its text.
    let minutes = (punishment.date.timeIntervalSince1970 / 60).rounded(.down)
    let minute = Int(exactly: minutes).map(String.init) ?? "\(minutes)"
    return StableHash.of([
      punishment.sentence.rawValue, minute, user(punishment.subject), punishment.postID ?? "",
      user(punishment.requester),
    ])
  }

  private static func user(_ reference: ForumUserReference) -> String {
    reference.id.map { "id:\($0)" } ?? "name:\(reference.name.lowercased())"
  }
}
