/// One device's part of an Olm message: the message type (0 pre-key, 1 normal) and the ciphertext.
package struct MatrixOlmCiphertext: Sendable, Hashable, Codable {
  package var type: Int?
  package var body: String?

  package init(type: Int, body: String) {
    self.type = type
    self.body = body
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    type = container.lenientInt(forKey: .type)
    body = container.lenient(String.self, forKey: .body)
  }
}
