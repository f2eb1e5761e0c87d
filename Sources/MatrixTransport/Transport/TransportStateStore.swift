import Synchronization

/// Where the transport keeps what must survive a restart: the access token and device id of a password login, the
/// sync token (`next_batch`), thread roots. The app adapts the store's key-value table (one namespace per
/// transport); tests use the same adapter over a real database, or `InMemoryTransportStateStore`.
package protocol TransportStateStore: Sendable {
  func value(for key: String) async throws -> String?
  /// nil removes the key.
  func setValue(_ value: String?, for key: String) async throws
  /// Several keys at once, all or none (end-to-end encryption stores a ratchet step and the ciphertext it made
  /// together, so a crash can never leave one without the other). nil removes a key.
  func setValues(_ values: [String: String?]) async throws
}

extension TransportStateStore {
  /// One key after the other: for stores that cannot do better (memory, where nothing survives a crash anyway).
  package func setValues(_ values: [String: String?]) async throws {
    for (key, value) in values { try await setValue(value, for: key) }
  }
}

/// Keeps state in memory only: a restart starts over (a first sync that skips history, a new login).
package final class InMemoryTransportStateStore: TransportStateStore {
  private let values = Mutex<[String: String]>([:])

  package init(_ initial: [String: String] = [:]) {
    values.withLock { $0 = initial }
  }

  package func value(for key: String) async throws -> String? {
    values.withLock { $0[key] }
  }

  package func setValue(_ value: String?, for key: String) async throws {
    values.withLock { $0[key] = value }
  }

  package var snapshot: [String: String] { values.withLock { $0 } }
}

/// The keys the transport uses.
enum MatrixStateKey {
  static let userID = "user_id"
  static let accessToken = "access_token"
  static let deviceID = "device_id"
  static let nextBatch = "next_batch"
  static let directRooms = "direct_rooms"
  static let encryptedRooms = "encrypted_rooms"

  static func thread(room: String, key: String) -> String { "thread:\(room):\(key)" }
  /// Set once the encryption notice went to the room: it is sent once per room ever.
  static func encryptionNotice(room: String) -> String { "encryption-notice:\(room)" }
  /// Set once a sender was told the bot does not act on messages from their unverified device, in that room.
  static func untrustedDeviceNotice(room: String, user: String, device: String) -> String {
    "untrusted-device-notice:\(room)|\(user)|\(device)"
  }
}
