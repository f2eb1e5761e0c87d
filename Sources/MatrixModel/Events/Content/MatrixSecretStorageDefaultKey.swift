/// Account data `m.secret_storage.default_key`: which storage key secrets are stored under.
package struct MatrixSecretStorageDefaultKey: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.secretStorageDefaultKey

  package var key: String?

  package init(key: String) {
    self.key = key
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = container.lenient(String.self, forKey: .key)
  }
}
