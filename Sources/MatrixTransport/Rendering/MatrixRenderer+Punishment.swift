import ChatBridge
import ChatRendering
import ForumModel

/// Leper's Colony entries in HTML: the sentence in bold, who and by whom, the reason as the forum's rich text through
/// the same allow-listed writer as a post's body (a moderator's markup never reaches the room as HTML of its own),
/// and a link to the post or the rap sheet.
extension MatrixRenderer {
  func writePunishment(_ relay: PunishmentRelay, into writer: inout HTMLWriter) {
    writer.element("p") { paragraph in
      paragraph.element("b") { $0.text(TextRendering.punishmentHeading(relay)) }
      paragraph.text(": ")
      paragraph.element("b") { $0.text(relay.user) }
      paragraph.text(", " + TextRendering.punishmentByline(relay) + ":")
    }
    let excerpt = PostExcerpt(relay.reason, maxCharacters: relay.excerptLength)
    if excerpt.nodes.isEmpty || TextRendering.oneLine(plainText(excerpt.nodes, spoilers: .hidden)).isEmpty {
      writer.element("p") { $0.element("i") { $0.text("No reason was given.") } }
    } else {
      writer.element("blockquote") { quote in
        RichTextHTML().write(excerpt.nodes, into: &quote)
        if excerpt.wasCut { quote.text(" …") }
      }
    }
    writer.element("p") { paragraph in
      paragraph.link(relay.link) { $0.text(relay.linksPost ? "The post that earned it" : "Their rap sheet") }
    }
  }

  func writePunishmentSummary(_ summary: PunishmentSummary, into writer: inout HTMLWriter) {
    let names = NameList.format(summary.users)
    writer.text(
      NameList.count(summary.count, "more Leper's Colony entry", plural: "more Leper's Colony entries")
        + (names.isEmpty ? "" : ", for \(names)") + ": ")
    writer.link(summary.link) { $0.text("the Leper's Colony") }
  }
}
