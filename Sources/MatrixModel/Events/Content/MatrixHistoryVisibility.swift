/// `m.room.history_visibility`: who may read what was said before they joined (`shared`, `invited`, `joined`,
/// `world_readable`).
package struct MatrixHistoryVisibility: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.historyVisibility

  package var historyVisibility: String?

  enum CodingKeys: String, CodingKey {
    case historyVisibility = "history_visibility"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    historyVisibility = container.lenient(String.self, forKey: .historyVisibility)
  }
}
