/// A secret encrypted under one storage key (`m.secret_storage.v1.aes-hmac-sha2`): all three fields base64.
package struct MatrixEncryptedSecret: Sendable, Hashable, Codable {
  package var iv: String
  package var ciphertext: String
  package var mac: String

  package init(iv: String, ciphertext: String, mac: String) {
    self.iv = iv
    self.ciphertext = ciphertext
    self.mac = mac
  }
}
