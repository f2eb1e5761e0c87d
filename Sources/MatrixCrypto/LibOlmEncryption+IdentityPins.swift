import ChatBridge
import Foundation

/// Other users' identities pinned on first sight, as Element pins them: the master key first seen for a user is
/// theirs. A different one later (a reset, a stolen password, or the homeserver) makes every device of theirs
/// untrusted until the operator accepts the new key in the config (`acceptedIdentities`), and the rooms the bot shares
/// with them are told once. Without the pin, whoever can publish a new master key for a user could cross-sign a
/// device of their own and speak for that user.
extension LibOlmEncryption {
  /// A change the rooms have not been told about yet, or that waits for the operator.
  struct IdentityChangeRecord: Codable, Sendable, Hashable {
    var pinned: String
    var current: String
    var told: Bool
  }

  /// Loads the changes still waiting (for `status`, and to tell rooms a crash kept from being told).
  func loadIdentityChanges() async throws {
    identityChanges =
      try await store.read([String: IdentityChangeRecord].self, MatrixCryptoStore.Key.identityChanges) ?? [:]
  }

  /// Whether `user`'s devices must be treated as untrusted because their master key is not the pinned one. Pins the
  /// key on first sight, and moves the pin when the operator accepted the new key.
  func identityChanged(of user: String, masterKey: String?) async throws -> Bool {
    guard user != userID, let masterKey else { return false }
    let pinKey = MatrixCryptoStore.Key.pinnedIdentity(user: user)
    guard let pinned = try await store.read(String.self, pinKey) else {
      try await store.write(masterKey, pinKey)
      return false
    }
    if pinned == masterKey || accepted[user] == masterKey {
      if pinned != masterKey {
        try await store.write(masterKey, pinKey)
        logger.notice(
          "accepted a user's new identity, as the config says",
          metadata: ["user": "\(user)", "masterKey": "\(masterKey)"])
      }
      if identityChanges.removeValue(forKey: user) != nil { try await saveIdentityChanges() }
      return false
    }
    if identityChanges[user]?.current != masterKey {
      logger.warning(
        "a user's identity changed; their devices are untrusted until the operator accepts it",
        metadata: ["user": "\(user)", "pinned": "\(pinned)", "current": "\(masterKey)"])
      identityChanges[user] = IdentityChangeRecord(pinned: pinned, current: masterKey, told: false)
      try await saveIdentityChanges()
    }
    return true
  }

  /// Keys as the operator copied them from the notice (grouped in fours) or whole.
  static func normalised(_ identities: [String: String]) -> [String: String] {
    identities.mapValues { $0.filter { !$0.isWhitespace } }
  }

  private func saveIdentityChanges() async throws {
    try await store.write(identityChanges, MatrixCryptoStore.Key.identityChanges)
  }

  package func acceptIdentities(_ identities: [String: String]) async {
    let identities = Self.normalised(identities)
    await exclusively {
      let newlyAccepted = identities.filter { accepted[$0.key] != $0.value }.map(\.key)
      accepted = identities
      // Read again with the accepted keys: their devices are judged afresh.
      if !newlyAccepted.isEmpty { await markOutdated(newlyAccepted) }
    }
  }

  package func identityChangesToAnnounce() async -> [MatrixIdentityChange] {
    identityChanges.filter { !$0.value.told }.map { MatrixIdentityChange(user: $0.key, record: $0.value) }
      .sorted { $0.user < $1.user }
  }

  package func identityChangeAnnounced(_ change: MatrixIdentityChange) async {
    await exclusively {
      guard identityChanges[change.user]?.current == change.currentMasterKey else { return }
      identityChanges[change.user]?.told = true
      do {
        try await saveIdentityChanges()
      } catch {
        logger.warning("could not store that an identity change was announced", metadata: ["error": "\(error)"])
      }
    }
  }

  package func changedIdentity(of user: String) async -> MatrixIdentityChange? {
    identityChanges[user].map { MatrixIdentityChange(user: user, record: $0) }
  }

  /// Users whose device lists changed are read at once when they may carry a new identity, so the rooms hear of it
  /// when it happens rather than at the user's next message.
  func checkIdentities(of users: [String]) async {
    let others = users.filter { $0 != userID }
    guard !others.isEmpty else { return }
    do {
      _ = try await devices(of: others)
    } catch {
      logger.warning("could not read changed device lists", metadata: ["error": "\(error)"])
    }
  }
}

extension MatrixIdentityChange {
  init(user: String, record: LibOlmEncryption.IdentityChangeRecord) {
    self.init(user: user, pinnedMasterKey: record.pinned, currentMasterKey: record.current)
  }
}
