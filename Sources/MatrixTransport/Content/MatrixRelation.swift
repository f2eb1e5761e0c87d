import ChatBridge

/// An event's `m.relates_to`, as far as the bot reads it: replies (`m.in_reply_to`), edits (`m.replace`), threads
/// (`m.thread`, with or without a reply inside) and annotations (`m.annotation`, reactions).
package struct MatrixRelation: Sendable, Hashable {
  package var relType: String?
  /// The parent of a `rel_type` relation (the edited event, the thread root, the event reacted to).
  package var eventID: String?
  /// An annotation's key (the emoji of a reaction), as sent.
  package var key: String?
  /// `m.in_reply_to.event_id`.
  package var inReplyTo: String?
  /// A thread message's `m.in_reply_to` only stands in for the thread, for clients without threads.
  package var isFallingBack: Bool

  /// nil when the content has no (object) `m.relates_to`.
  package init?(content: JSONValue) {
    guard let relation = content["m.relates_to"], relation.objectValue != nil else { return nil }
    relType = relation["rel_type"]?.stringValue
    eventID = relation["event_id"]?.stringValue
    key = relation["key"]?.stringValue
    inReplyTo = relation["m.in_reply_to"]?["event_id"]?.stringValue
    isFallingBack = relation["is_falling_back"]?.boolValue ?? false
  }

  /// The event this one answers. A thread message whose `m.in_reply_to` is only the fallback for clients without
  /// threads (`is_falling_back: true`, spec "Fallback for unthreaded clients") answers nothing: it names the thread's
  /// latest event, which may be anyone's, not one the writer chose. It is not taken as an answer to the thread root
  /// either: relays of one forum thread share a Matrix thread, so the root is the first relay of many, not the post
  /// being answered. A reply the writer made inside a thread (`is_falling_back` false or absent) answers its event.
  package var replyTo: String? {
    guard let inReplyTo, !(relType == "m.thread" && isFallingBack) else { return nil }
    return inReplyTo
  }

  package var isEdit: Bool { relType == "m.replace" }

  /// An `m.annotation` with a target and a key; nil for anything else.
  package var annotation: (target: String, key: String)? {
    guard relType == "m.annotation", let eventID, !eventID.isEmpty, let key, !key.isEmpty else { return nil }
    return (eventID, key)
  }

  /// The text of a reply without the quoted fallback older clients put before it (spec, "Fallbacks for rich
  /// replies"): `> <@alice:example.org> original` lines, then an empty line, then the answer. Only that shape is
  /// removed: the first line must be the fallback's `> <sender>` (`> * <sender>` for an emote) and the quote must end
  /// with an empty line. Clients stopped sending the fallback (spec v1.13), so a reply may well start with a quote its
  /// writer typed (`> a line of the post` and a comment); that stays, as it is what the person wrote.
  package static func strippingReplyFallback(_ body: String) -> String {
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = lines.first, first.hasPrefix("> <") || first.hasPrefix("> * <") else { return body }
    // A quoted empty line of the original is `> `, which some clients trim to `>`.
    let quoted = lines.prefix { $0.hasPrefix("> ") || $0 == ">" }
    let rest = lines.dropFirst(quoted.count)
    guard let separator = rest.first, separator.isEmpty else { return body }
    return rest.dropFirst().joined(separator: "\n")
  }
}
