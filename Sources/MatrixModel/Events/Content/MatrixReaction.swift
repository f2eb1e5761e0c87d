/// `m.reaction`: an annotation (an emoji) on another event.
package struct MatrixReaction: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.reaction

  package var relatesTo: MatrixRelation?

  /// The reaction `key` to `eventID`.
  package init(to eventID: String, key: String) {
    relatesTo = MatrixRelation(relType: MatrixRelationType.annotation, eventID: eventID, key: key)
  }

  enum CodingKeys: String, CodingKey {
    case relatesTo = "m.relates_to"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    relatesTo = container.lenient(MatrixRelation.self, forKey: .relatesTo)
  }
}
