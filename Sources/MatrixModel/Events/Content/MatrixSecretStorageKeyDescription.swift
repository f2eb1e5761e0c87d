/// Account data `m.secret_storage.key.<id>` (`MatrixEventType.secretStorageKey`): a storage key's algorithm, name,
/// and the `iv` and `mac` that let a client check a key it is given.
package struct MatrixSecretStorageKeyDescription: Sendable, Hashable, Codable {
  package var algorithm: String?
  package var name: String?
  package var iv: String?
  package var mac: String?

  package init(algorithm: String, name: String, iv: String, mac: String) {
    self.algorithm = algorithm
    self.name = name
    self.iv = iv
    self.mac = mac
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = container.lenient(String.self, forKey: .algorithm)
    name = container.lenient(String.self, forKey: .name)
    iv = container.lenient(String.self, forKey: .iv)
    mac = container.lenient(String.self, forKey: .mac)
  }
}
