import ChatBridge
import MatrixCrypto
import MatrixModel
import MatrixTransport

/// Stands in for libolm where only "encryption is on" matters: it decrypts nothing, encrypts nothing (the content
/// goes out as it came), and has no identity.
package struct InertEncryption: MatrixEncryption {
  package init() {}

  package func start() async throws {}
  package func receive(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID] { [] }
  package func membersChanged(room: String, someoneLeft: Bool) async {}
  package func historyVisibilityChanged(room: String) async {}
  package func decrypt(_ event: MatrixEvent, room: String) async -> MatrixDecryption { .failed("inert") }
  package func encrypt(_ content: JSONValue, type: String, room: String, transactionID: String) async throws
    -> JSONValue
  {
    content
  }
  package func fingerprint() async -> String? { nil }
  package func sharedRooms() async -> Set<String> { [] }
  package func identityStatus() async -> MatrixIdentityStatus? { nil }
  package func recoveryKey() async -> String? { nil }
  package func acceptIdentities(_ identities: [String: String]) async {}
  package func identityChangesToAnnounce() async -> [MatrixIdentityChange] { [] }
  package func identityChangeAnnounced(_ change: MatrixIdentityChange) async {}
  package func changedIdentity(of user: String) async -> MatrixIdentityChange? { nil }
}
