/// Where the transport keeps what must survive a restart: the access token and device id of a password login, the
/// sync token (`next_batch`), thread roots. The app adapts the store's `transportState` table (rows keyed by the
/// transport's name; the keys are the transport's own, which the store never reads); tests use the same adapter over a real database, or `InMemoryTransportStateStore`. Reads alone (`check`)
/// get a store whose writes throw.
package protocol TransportStateStore: Sendable {
  func value(for key: String) async throws -> String?
  /// nil removes the key.
  func setValue(_ value: String?, for key: String) async throws
  /// Several keys at once, all or none (end-to-end encryption stores a ratchet step and the ciphertext it made
  /// together, so a crash can never leave one without the other). nil removes a key.
  func setValues(_ values: [String: String?]) async throws
  /// Removes every key that starts with `prefix`: how a transport drops rows an older version of it kept per key
  /// (Matrix: a notice row per device). A store that cannot list its keys keeps them (the default).
  func removeValues(withPrefix prefix: String) async throws
}

extension TransportStateStore {
  /// One key after the other: for stores that cannot do better (memory, where nothing survives a crash anyway).
  package func setValues(_ values: [String: String?]) async throws {
    for (key, value) in values { try await setValue(value, for: key) }
  }

  package func removeValues(withPrefix prefix: String) async throws {}
}
