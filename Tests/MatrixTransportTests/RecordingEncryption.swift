import ChatBridge
import MatrixCrypto
import MatrixModel
import Synchronization

@testable import MatrixTransport

/// Encrypts into an opaque stand-in and remembers the event types it was given.
final class RecordingEncryption: MatrixEncryption {
  private let recorded = Mutex<[String]>([])
  var types: [String] { recorded.withLock { $0 } }

  func start() async throws {}
  func receive(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID] { [] }
  func membersChanged(room: String, someoneLeft: Bool) async {}
  func historyVisibilityChanged(room: String) async {}
  func decrypt(_ event: MatrixEvent, room: String) async -> MatrixDecryption { .failed("not here") }
  func encrypt(_ content: JSONValue, type: String, room: String, transactionID: String) async throws -> JSONValue {
    recorded.withLock { $0.append(type) }
    return ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "opaque"]
  }
  func fingerprint() async -> String? { nil }
  func sharedRooms() async -> Set<String> { [] }
  func identityStatus() async -> MatrixIdentityStatus? { nil }
  func recoveryKey() async -> String? { nil }
  func acceptIdentities(_ identities: [String: String]) async {}
  func identityChangesToAnnounce() async -> [MatrixIdentityChange] { [] }
  func identityChangeAnnounced(_ change: MatrixIdentityChange) async {}
  func changedIdentity(of user: String) async -> MatrixIdentityChange? { nil }
}
