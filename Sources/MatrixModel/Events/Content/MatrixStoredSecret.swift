import ChatBridge

/// Account data holding a secret (`m.cross_signing.master` and the like): its encryption under each storage key, by
/// key id.
package struct MatrixStoredSecret: Sendable, Hashable, Codable {
  /// Kept open: an entry that is not a well-formed secret only fails when the bot reads that one.
  package var encrypted: [String: JSONValue]

  package init(encrypted: [String: MatrixEncryptedSecret]) {
    self.encrypted = encrypted.mapValues { (try? JSONValue.encoding($0)) ?? [:] }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    encrypted = container.lenient([String: JSONValue].self, forKey: .encrypted) ?? [:]
  }

  /// The secret as encrypted under `keyID`; nil when it is not stored under that key.
  package func secret(under keyID: String) -> MatrixEncryptedSecret? {
    encrypted[keyID]?.decoded(as: MatrixEncryptedSecret.self)
  }
}
