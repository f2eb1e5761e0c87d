import ChatBridge
import Foundation

/// Encryption state older than the homeserver's: a database restored from a backup (or copied back by hand). The
/// Megolm sessions in it would repeat message indexes already used since, with other plaintext, and the Olm account
/// would generate one-time keys under ids the homeserver already holds other keys for. So: every room gets a new
/// session before its next message, the one-time keys the homeserver holds are claimed away and their ids skipped,
/// and a new fallback key replaces the one published since.
extension LibOlmEncryption {
  /// When sessions made before count as stale (milliseconds since 1970), once a restore was met.
  static let sessionsValidFromKey = "e2ee:sessions-valid-from"

  /// What starting over did, for the one log line.
  struct RestoreRecovery: Sendable {
    var claimedOneTimeKeys: Int
    var skippedToKeyID: UInt32?
  }

  /// Runs the recovery when `awfulbot restore` marked the store (see `TransportStateMarker`), then removes the mark.
  func recoverIfRestored() async throws {
    guard try await store.store.value(for: TransportStateMarker.restoredFromBackup) != nil else { return }
    let recovery = try await startOver()
    try await store.store.setValue(nil, for: TransportStateMarker.restoredFromBackup)
    logger.notice(
      "encryption state restored from a backup: new room keys, one-time keys the homeserver held skipped",
      metadata: [
        "claimedOneTimeKeys": "\(recovery.claimedOneTimeKeys)",
        "skippedToKeyID": "\(recovery.skippedToKeyID.map(String.init) ?? "-")",
      ])
  }

  /// The recovery itself; safe to run twice (a crash halfway runs it again at the next start).
  func startOver() async throws -> RestoreRecovery {
    let now = Self.nowMilliseconds
    try await store.write(now, Self.sessionsValidFromKey)
    sessionsValidFrom = now
    outbound = [:]
    fullyShared = []
    let (claimed, highest) = try await claimOwnOneTimeKeys()
    if let highest { try skipOneTimeKeyIDs(through: highest) }
    try await replaceFallbackKey()
    return RestoreRecovery(claimedOneTimeKeys: claimed, skippedToKeyID: highest)
  }

  /// Claims this device's one-time keys from the homeserver until none is left (a claim answers with the fallback
  /// key then): nobody can start a session with a key the restored account may have lost. Returns how many were
  /// claimed and the highest key id among them.
  private func claimOwnOneTimeKeys() async throws -> (Int, UInt32?) {
    var claimed = 0
    var highest: UInt32?
    for _ in 0..<500 {
      let answer = try await api.claimKeys([userID: [deviceID]])
      guard case .object(let keys)? = answer["one_time_keys"]?[userID]?[deviceID], let (name, key) = keys.first,
        key["fallback"]?.boolValue != true
      else { break }
      claimed += 1
      if let id = Self.keyNumber(name) { highest = max(highest ?? 0, id) }
    }
    return (claimed, highest)
  }

  /// Generates and discards one-time keys until the account's next key id is past `highest`, so no key id the
  /// homeserver has held is ever published again with another key.
  private func skipOneTimeKeyIDs(through highest: UInt32) throws {
    guard let account else { return }
    let batch = max(account.maxOneTimeKeys / 2, 1)
    while true {
      try account.generateOneTimeKeys(batch)
      let newest = try account.oneTimeKeys().keys.compactMap { Self.keyNumber("signed_curve25519:\($0)") }.max() ?? 0
      // Marked published but never uploaded: libolm keeps the newest of them, and nobody can claim them.
      account.markKeysAsPublished()
      if newest > highest { break }
    }
  }

  /// A new fallback key replaces the one on the homeserver, which may be one the restored account never made.
  private func replaceFallbackKey() async throws {
    guard let account else { return }
    try account.generateFallbackKey()
    try await uploadFallbackKey(replacing: true)
  }

  /// The counter in a libolm key id (`signed_curve25519:AAAAAQ` → 1): four bytes, big-endian, unpadded base64.
  static func keyNumber(_ name: String) -> UInt32? {
    guard let id = name.split(separator: ":").last else { return nil }
    var base64 = String(id)
    while base64.count % 4 != 0 { base64 += "=" }
    guard let bytes = Data(base64Encoded: base64), bytes.count == 4 else { return nil }
    return bytes.reduce(0) { $0 << 8 | UInt32($1) }
  }
}
