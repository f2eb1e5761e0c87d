import ChatBridge
import ForumModel

/// Leper's Colony entries in plain text: one line each, the way a goon reads the Colony's row.
extension TextRendering {
  /// "PROBATION (6 hours): Horrible Jerk, by Ralp on 2013-11-10 10:10 UTC: reason… link".
  package static func punishmentLine(_ relay: PunishmentRelay) -> String {
    "\(punishmentHeading(relay)): \(ChatText.safeLine(relay.user)), \(punishmentByline(relay)): "
      + "\(punishmentReason(relay)) \(relay.link)"
  }

  /// "PROBATION (6 hours)", "BAN", "PERMABAN".
  package static func punishmentHeading(_ relay: PunishmentRelay) -> String {
    let sentence = ChatText.safeLine(relay.sentence).uppercased()
    guard let length = relay.probationLength.map(ChatText.safeLine), !length.isEmpty else { return sentence }
    return "\(sentence) (\(length))"
  }

  /// "by Ralp on 2013-11-10 10:10 UTC".
  package static func punishmentByline(_ relay: PunishmentRelay) -> String {
    let moderator = ChatText.safeLine(relay.moderator)
    return "by \(moderator.isEmpty ? "an unnamed moderator" : moderator)" + (relay.date.map { " on \($0.text)" } ?? "")
  }

  /// The reason on one line, cut to about the relay's excerpt length with "…", or a sentence saying there is none.
  package static func punishmentReason(_ relay: PunishmentRelay) -> String {
    let excerpt = PostExcerpt(relay.reason, maxCharacters: relay.excerptLength)
    var text = oneLine(plainText(excerpt.nodes, spoilers: .hidden))
    if text.isEmpty { return "no reason was given." }
    if excerpt.wasCut && !text.hasSuffix("…") { text += "…" }
    return text
  }

  /// "12 more Leper's Colony entries, for A, B, C and 9 others: link".
  package static func punishmentSummaryLine(_ summary: PunishmentSummary) -> String {
    let names = NameList.format(summary.users)
    let entries = NameList.count(summary.count, "more Leper's Colony entry", plural: "more Leper's Colony entries")
    return "\(entries)\(names.isEmpty ? "" : ", for \(names)"): \(summary.link)"
  }
}
