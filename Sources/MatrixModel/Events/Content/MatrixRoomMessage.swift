import ChatBridge

/// `m.room.message`: the notices and pictures the bot sends, and the text people write to it.
package struct MatrixRoomMessage: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomMessage
  /// The `format` of `formatted_body` the bot writes.
  package static let htmlFormat = "org.matrix.custom.html"

  package var msgtype: String?
  package var body: String?
  package var format: String?
  package var formattedBody: String?
  /// Pictures: what the file is (`mimetype`, `w`, `h`, `size`), and where: `url` in a plain room, `file` (the
  /// encrypted attachment) in an encrypted one.
  package var info: MatrixImageInfo?
  package var url: String?
  package var file: JSONValue?
  package var mentions: MatrixMentions?
  package var relatesTo: MatrixRelation?
  /// An edit's replacement content (the message as it now reads).
  package var newContent: JSONValue?
  /// MSC4095 (bundled URL previews), under the spec's name and Beeper's: an empty list means "no previews".
  package var urlPreviews: [JSONValue]?
  package var beeperLinkPreviews: [JSONValue]?
  /// Whether the content has `m.new_content` at all (of whatever kind): such a message is an edit.
  package private(set) var hasNewContent = false

  package init(msgtype: String, body: String) {
    self.msgtype = msgtype
    self.body = body
  }

  enum CodingKeys: String, CodingKey {
    case msgtype
    case body
    case format
    case formattedBody = "formatted_body"
    case info
    case url
    case file
    case mentions = "m.mentions"
    case relatesTo = "m.relates_to"
    case newContent = "m.new_content"
    case urlPreviews = "m.url_previews"
    case beeperLinkPreviews = "com.beeper.linkpreviews"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    msgtype = container.lenient(String.self, forKey: .msgtype)
    body = container.lenient(String.self, forKey: .body)
    format = container.lenient(String.self, forKey: .format)
    formattedBody = container.lenient(String.self, forKey: .formattedBody)
    info = container.lenient(MatrixImageInfo.self, forKey: .info)
    url = container.lenient(String.self, forKey: .url)
    file = container.lenient(JSONValue.self, forKey: .file)
    mentions = container.lenient(MatrixMentions.self, forKey: .mentions)
    relatesTo = container.lenient(MatrixRelation.self, forKey: .relatesTo)
    newContent = container.lenient(JSONValue.self, forKey: .newContent)
    urlPreviews = container.lenient([JSONValue].self, forKey: .urlPreviews)
    beeperLinkPreviews = container.lenient([JSONValue].self, forKey: .beeperLinkPreviews)
    hasNewContent = container.contains(.newContent)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(msgtype, forKey: .msgtype)
    try container.encodeIfPresent(body, forKey: .body)
    try container.encodeIfPresent(format, forKey: .format)
    try container.encodeIfPresent(formattedBody, forKey: .formattedBody)
    try container.encodeIfPresent(info, forKey: .info)
    try container.encodeIfPresent(url, forKey: .url)
    try container.encodeIfPresent(file, forKey: .file)
    try container.encodeIfPresent(mentions, forKey: .mentions)
    try container.encodeIfPresent(relatesTo, forKey: .relatesTo)
    try container.encodeIfPresent(newContent, forKey: .newContent)
    try container.encodeIfPresent(urlPreviews, forKey: .urlPreviews)
    try container.encodeIfPresent(beeperLinkPreviews, forKey: .beeperLinkPreviews)
  }

  /// An edit: a replacement (`m.new_content`) or a relation that says so. Never a command.
  package var isEdit: Bool { hasNewContent || relatesTo?.isEdit == true }
}
