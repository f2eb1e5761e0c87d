/// Encryption algorithm names: Olm between devices, Megolm in rooms, and the cipher of secret storage.
package enum MatrixAlgorithm {
  package static let olm = "m.olm.v1.curve25519-aes-sha2"
  package static let megolm = "m.megolm.v1.aes-sha2"
  package static let secretStorage = "m.secret_storage.v1.aes-hmac-sha2"
}
