import Crypto
import Foundation
import MatrixTransport

/// A fresh account on the benchmark's homeserver, made through Synapse's shared-secret admin registration.
struct SynapseAccount: Sendable {
  let userID: String
  let password: String
  let accessToken: String

  /// Registers `<prefix>_<random>` so runs never share users. The MAC is HMAC-SHA1 over
  /// `nonce NUL user NUL password NUL admin|notadmin`, keyed with the shared secret (Synapse's admin API).
  static func register(_ prefix: String, admin: Bool, secret: String, client: MatrixClient) async throws
    -> SynapseAccount
  {
    let username = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
    let password = "pw-\(UUID().uuidString)"
    let nonce = try await client.registrationNonce()
    let mac = registrationMAC(secret: secret, nonce: nonce, username: username, password: password, admin: admin)
    let registered = try await client.registerWithSharedSecret(
      nonce: nonce, username: username, password: password, admin: admin, mac: mac)
    return SynapseAccount(userID: registered.userID, password: password, accessToken: registered.accessToken)
  }

  static func registrationMAC(secret: String, nonce: String, username: String, password: String, admin: Bool)
    -> String
  {
    let message =
      Array(nonce.utf8) + [0] + Array(username.utf8) + [0] + Array(password.utf8) + [0]
      + Array((admin ? "admin" : "notadmin").utf8)
    let code = HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: Array(secret.utf8)))
    return code.map { String(format: "%02x", $0) }.joined()
  }
}
