import ChatBridge
import Foundation
import Logging
import MatrixModel

/// `MatrixEncryption` on libolm: Olm (`m.olm.v1.curve25519-aes-sha2`) between devices, Megolm
/// (`m.megolm.v1.aes-sha2`) in rooms. One actor owns all libolm objects (they are not thread-safe); the concerns
/// live in extensions: account and key upload, device tracking, Olm, Megolm. State is saved after every change, so a
/// crash loses at most the step in hand, and the pickle key never leaves this type.
package actor LibOlmEncryption: MatrixEncryption {
  let userID: String
  let deviceID: String
  let pickleKey: [UInt8]
  let store: MatrixCryptoStore
  let api: MatrixCryptoAPI
  let logger: Logger
  let identityOptions: MatrixIdentityOptions

  var account: OlmAccount?
  /// The user's cross-signing keys, once established (see `establishIdentity`).
  var crossSigning: CrossSigningKeys?
  /// When each peer device last got a fresh Olm session because one of its messages did not open (`user|device`).
  var unwedgedAt: [String: ContinuousClock.Instant] = [:]
  /// When the fallback key before the current one may be forgotten (as stored in the account record), so the sync
  /// path knows without reading the store.
  var forgetOldFallbackAt: Int64?
  var identity: (curve25519: String, ed25519: String) = ("", "")
  /// Olm sessions per peer curve25519 key, most recently used first.
  var olmSessions: [String: [OlmSession]] = [:]

  /// A Megolm session someone shared, as `MatrixCryptoStore.InboundRecord` keeps it, unpickled.
  struct InboundSession {
    var session: MegolmInboundSession
    /// Whose device sent it over Olm; nil for a forwarded key.
    var owner: String?
    /// The ed25519 key that device claimed.
    var signingKey: String?
  }
  /// Unpickled on first use and kept while used; the store keeps every one (see `RecentlyUsedCache`).
  var inbound: RecentlyUsedCache<MatrixMegolmSessionID, InboundSession>
  /// How many Megolm sessions are unpickled in memory now.
  var inboundSessionsHeld: Int { inbound.count }
  /// Which event used each Megolm message index, so a replayed ciphertext in another event is refused instead of
  /// running a command twice (bounded; see `MegolmReplayGuard`).
  var usedIndexes = MegolmReplayGuard()
  var outbound: [String: (session: MegolmOutboundSession, record: MatrixCryptoStore.OutboundRecord)] = [:]
  var devices: [String: [String: MatrixCryptoStore.DeviceRecord]] = [:]
  /// Users whose device list changed (or was never read) since the last `/keys/query`.
  var outdatedUsers: Set<String> = []
  /// Joined members per encrypted room, read once and forgotten when the membership changes.
  var members: [String: [String]] = [:]
  /// Rotation periods per room (`m.room.encryption`): milliseconds, messages.
  var rotation: [String: (milliseconds: Int64, messages: Int)] = [:]
  /// Per room, whether its history is shared with members (`shared` or `world_readable`), read once per session.
  var historyShared: [String: Bool] = [:]
  /// Rooms whose current session went to every joined device at its last send.
  var fullyShared: Set<String> = []
  /// Outbound sessions made before this (milliseconds since 1970) are not used again: the state was restored from a
  /// backup then, and they may already have sent later indexes (see `LibOlmEncryption+Restore.swift`).
  var sessionsValidFrom: Int64?
  /// New master keys the operator accepted for users whose pinned identity changed (`acceptedIdentities`).
  var accepted: [String: String]
  /// Users whose master key is not the pinned one, until the operator accepts it (see `identityChanged`).
  var identityChanges: [String: IdentityChangeRecord] = [:]

  /// One operation at a time: an actor lets another call in at every `await` (an HTTP call while sharing a key),
  /// and two operations interleaving on the same ratchets would corrupt them.
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func exclusively<T>(_ body: () async throws -> T) async rethrows -> T {
    if busy {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      busy = true
    }
    defer {
      if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
    return try await body()
  }

  /// - Parameters:
  ///   - pickleKey: the secret libolm encrypts its pickles with; never logged.
  ///   - inboundSessionsInMemory: how many unpickled Megolm sessions stay in memory (the store keeps all).
  package init(
    userID: String, deviceID: String, pickleKey: String, store: any TransportStateStore, api: MatrixCryptoAPI,
    identityOptions: MatrixIdentityOptions, logger: Logger, inboundSessionsInMemory: Int = 256
  ) {
    self.inbound = RecentlyUsedCache(capacity: inboundSessionsInMemory)
    self.identityOptions = identityOptions
    self.accepted = Self.normalised(identityOptions.acceptedIdentities)
    self.userID = userID
    self.deviceID = deviceID
    self.pickleKey = Array(pickleKey.utf8)
    self.store = MatrixCryptoStore(store: store)
    self.api = api
    self.logger = logger
  }

  package func fingerprint() -> String? { account == nil ? nil : identity.ed25519 }

  package func sharedRooms() -> Set<String> { fullyShared }

  package func start() async throws {
    try await exclusively {
      try await loadOrCreateAccount()
      sessionsValidFrom = try await store.read(Int64.self, Self.sessionsValidFromKey)
      try await recoverIfRestored()
      outdatedUsers = Set(try await store.read([String].self, MatrixCryptoStore.Key.outdatedUsers) ?? [])
      try await loadIdentityChanges()
      // Before anything is published: a device whose keys are out but which the bot's identity never signs shows as
      // an unverified session of the bot in every member's list.
      try await refuseIdentityNotHeld()
      try await publishKeys(oneTimeKeyCount: nil)
      try await publishFallbackKeyIfNeeded(unusedTypes: nil)
      try await establishIdentity()
    }
  }

  package func identityStatus() async -> MatrixIdentityStatus? {
    guard let crossSigning else { return nil }
    return MatrixIdentityStatus(
      masterKey: crossSigning.master.publicKey, trust: identityOptions.trust,
      changedIdentities: identityChanges.keys.sorted())
  }

  package func recoveryKey() async -> String? {
    guard let record = try? await store.read(StoredCrossSigningKeys.self, Self.crossSigningKey) else { return nil }
    return (try? record.openStorageKey(pickleKey: pickleKey))??.displayed
  }

  package func receive(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID] {
    await exclusively { await receiveExclusively(sync) }
  }

  private func receiveExclusively(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID] {
    var arrived: [MatrixMegolmSessionID] = []
    for event in sync.toDevice?.events ?? [] {
      do {
        if let session = try await receiveToDevice(event) { arrived.append(session) }
      } catch {
        logger.warning(
          "could not read a to-device message",
          metadata: ["type": "\(event.type)", "sender": "\(event.sender ?? "-")", "error": "\(error)"])
      }
    }
    let changed = (sync.deviceLists?.changed ?? []) + (sync.deviceLists?.left ?? [])
    if !changed.isEmpty { await markOutdated(changed) }
    await checkIdentities(of: sync.deviceLists?.changed ?? [])
    if let count = sync.oneTimeKeysCount?["signed_curve25519"] {
      do {
        try await publishKeys(oneTimeKeyCount: count)
      } catch {
        logger.warning("could not top up one-time keys", metadata: ["error": "\(error)"])
      }
    }
    if let types = sync.unusedFallbackKeyTypes {
      do {
        try await publishFallbackKeyIfNeeded(unusedTypes: types)
      } catch {
        logger.warning("could not publish a new fallback key", metadata: ["error": "\(error)"])
      }
    }
    return arrived
  }

  package func historyVisibilityChanged(room: String) async {
    await exclusively {
      historyShared[room] = nil
      await discardOutbound(room: room, reason: "the history visibility changed")
    }
  }

  package func membersChanged(room: String, someoneLeft: Bool) async {
    await exclusively {
      members[room] = nil
      if someoneLeft { await discardOutbound(room: room, reason: "a member left") }
    }
  }
}
