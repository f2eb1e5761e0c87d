import ChatBridge
import Foundation
import MatrixCrypto

/// The bot's identity as everyone else sees it: what `/keys/query` publishes for its user and device, with the
/// chain master → self-signing → device checked signature by signature. What `check` reports.
package struct MatrixPublishedIdentity: Sendable, Hashable {
  package var chain: CrossSigningChain
  /// The device is listed, and signed by the self-signing key the master key signed.
  package var deviceIsCrossSigned: Bool
  package var deviceListed: Bool

  /// Asks the homeserver (any token of the account will do) and checks the chain.
  package static func read(homeserver: URL, token: String, userID: String, deviceID: String?) async throws
    -> MatrixPublishedIdentity
  {
    let answer = try await MatrixClient(homeserver: homeserver).call(
      .v3(
        .post, ["keys", "query"], body: ["device_keys": .object([userID: []]), "timeout": 10000], accessToken: token),
      as: JSONValue.self)
    let chain = CrossSigningChain(user: userID, answer: answer)
    let device = deviceID.flatMap { answer["device_keys"]?[userID]?[$0] }
    return MatrixPublishedIdentity(
      chain: chain, deviceIsCrossSigned: device.map { chain.isCrossSigned(device: $0) } ?? false,
      deviceListed: device != nil)
  }
}
