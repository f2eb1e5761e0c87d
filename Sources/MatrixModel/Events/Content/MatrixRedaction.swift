/// The body of a redaction (`m.room.redaction`, sent through its own endpoint): why the event's content was removed.
package struct MatrixRedaction: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.redaction

  package var reason: String?

  package init(reason: String?) {
    self.reason = reason
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    reason = container.lenient(String.self, forKey: .reason)
  }
}
