/// `m.mentions` (intentional mentions): whom an event notifies. Empty, it tells the homeserver and clients to ignore
/// names and `@room` found in the text.
package struct MatrixMentions: Sendable, Hashable, Codable {
  package var userIDs: [String]?

  package init(userIDs: [String]? = nil) {
    self.userIDs = userIDs
  }

  enum CodingKeys: String, CodingKey {
    case userIDs = "user_ids"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    userIDs = container.lenient([String].self, forKey: .userIDs)
  }
}
