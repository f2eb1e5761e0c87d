/// An event's `m.relates_to`, as far as the bot reads and writes it: replies (`m.in_reply_to`), edits (`m.replace`),
/// threads (`m.thread`, with or without a reply inside) and annotations (`m.annotation`, reactions).
package struct MatrixRelation: Sendable, Hashable, Codable {
  /// The key of the relation in an event's content.
  package static let contentKey = "m.relates_to"

  package var relType: String?
  /// The parent of a `rel_type` relation (the edited event, the thread root, the event reacted to).
  package var eventID: String?
  /// An annotation's key (the emoji of a reaction), as sent.
  package var key: String?
  /// `m.in_reply_to.event_id`.
  package var inReplyTo: String?
  /// A thread message's `m.in_reply_to` only stands in for the thread, for clients without threads.
  package var isFallingBack: Bool

  package init(
    relType: String? = nil, eventID: String? = nil, key: String? = nil, inReplyTo: String? = nil,
    isFallingBack: Bool = false
  ) {
    self.relType = relType
    self.eventID = eventID
    self.key = key
    self.inReplyTo = inReplyTo
    self.isFallingBack = isFallingBack
  }

  /// A reply to `eventID`.
  package static func reply(to eventID: String) -> MatrixRelation { MatrixRelation(inReplyTo: eventID) }

  /// A message in the thread of `root`, replying to `latest` for clients without threads.
  package static func thread(root: String, latest: String) -> MatrixRelation {
    MatrixRelation(relType: MatrixRelationType.thread, eventID: root, inReplyTo: latest, isFallingBack: true)
  }

  enum CodingKeys: String, CodingKey {
    case relType = "rel_type"
    case eventID = "event_id"
    case key
    case inReplyTo = "m.in_reply_to"
    case isFallingBack = "is_falling_back"
  }

  enum ReplyKeys: String, CodingKey {
    case eventID = "event_id"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    relType = container.lenient(String.self, forKey: .relType)
    eventID = container.lenient(String.self, forKey: .eventID)
    key = container.lenient(String.self, forKey: .key)
    inReplyTo = (try? container.nestedContainer(keyedBy: ReplyKeys.self, forKey: .inReplyTo))?
      .lenient(String.self, forKey: .eventID)
    isFallingBack = container.lenient(Bool.self, forKey: .isFallingBack) ?? false
  }

  /// `is_falling_back` is written only when true: the bot's replies and annotations never carry it.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(relType, forKey: .relType)
    try container.encodeIfPresent(eventID, forKey: .eventID)
    try container.encodeIfPresent(key, forKey: .key)
    if isFallingBack { try container.encode(true, forKey: .isFallingBack) }
    if let inReplyTo {
      var reply = container.nestedContainer(keyedBy: ReplyKeys.self, forKey: .inReplyTo)
      try reply.encode(inReplyTo, forKey: .eventID)
    }
  }

  /// The event this one answers. A thread message whose `m.in_reply_to` is only the fallback for clients without
  /// threads (`is_falling_back: true`, spec "Fallback for unthreaded clients") answers nothing: it names the thread's
  /// latest event, which may be anyone's, not one the writer chose. It is not taken as an answer to the thread root
  /// either: relays of one forum thread share a Matrix thread, so the root is the first relay of many, not the post
  /// being answered. A reply the writer made inside a thread (`is_falling_back` false or absent) answers its event.
  package var replyTo: String? {
    guard let inReplyTo, !(relType == MatrixRelationType.thread && isFallingBack) else { return nil }
    return inReplyTo
  }

  package var isEdit: Bool { relType == MatrixRelationType.replace }

  /// An `m.annotation` with a target and a key; nil for anything else.
  package var annotation: (target: String, key: String)? {
    guard relType == MatrixRelationType.annotation, let eventID, !eventID.isEmpty, let key, !key.isEmpty else {
      return nil
    }
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
