import ForumModel
import Foundation

/// A Leper's Colony row has no id on the forum: the engine knows one by a hash of what the row never changes — the
/// sentence, when it was given (to the minute, as the forum prints it), who was punished, the post, and the
/// moderator who asked for it. Users by id where the row links one (a name can change), else by name. Not the reason
/// (a moderator may edit it) nor the approver (filled in later).
enum PunishmentIdentity {
  /// The scheme of the identities stored; a change makes the engine record the current page again unrelayed.
  static let scheme = "1"

  /// The identities of a page's rows, in its order (newest first). Rows alike in all of that (two probations of one
  /// user by one moderator in one minute, with no post) are told apart by their place among their like: counted from
  /// the bottom of the page, so one given later (on top) changes no identity already known. The first keeps the
  /// plain identity, so what was stored before this rule still matches.
  static func of(page punishments: [Punishment]) -> [String] {
    var alike: [String: Int] = [:]
    let fromBottom = punishments.reversed().map { punishment -> String in
      let identity = of(punishment)
      let count = (alike[identity] ?? 0) + 1
      alike[identity] = count
      return count == 1 ? identity : "\(identity)#\(count)"
    }
    return fromBottom.reversed()
  }

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
