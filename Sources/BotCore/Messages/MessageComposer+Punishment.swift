import ChatBridge
import ForumModel
import Foundation

extension MessageComposer {
  /// A Leper's Colony entry: the link opens the post that earned it, or the user's rap sheet when the row names no
  /// post (an autoban), or the Colony itself when it names neither. Ids from the page go into a link only when they
  /// are plain numbers.
  package func punishment(_ punishment: Punishment) -> PunishmentRelay {
    let postID = punishment.postID.flatMap(Self.number)
    let link =
      postID.map { links.post(id: $0) } ?? punishment.subject.id.flatMap(Self.number).map { links.rapSheet(userID: $0) }
      ?? links.lepersColony()
    return PunishmentRelay(
      sentence: punishment.sentence.rawValue, probationLength: punishment.probationLength,
      user: punishment.subject.name, moderator: punishment.requester.name, reason: punishment.reason,
      date: ChatDate(punishment.date, timeZone: dates.timeZone), link: link, linksPost: postID != nil,
      excerptLength: excerptLength)
  }

  /// Entries past a room's replay cap, told as a count with the Colony's link.
  package func punishments(_ punishments: [Punishment]) -> PunishmentSummary {
    PunishmentSummary(count: punishments.count, users: punishments.map(\.subject.name), link: links.lepersColony())
  }

  /// `text` when it is a non-empty run of ASCII digits (an id fit for a link), nil otherwise.
  static func number(_ text: String) -> String? {
    !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) } && text.utf8.count <= 20 ? text : nil
  }
}
