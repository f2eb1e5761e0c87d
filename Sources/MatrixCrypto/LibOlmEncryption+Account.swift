import ChatBridge
import Foundation
import MatrixModel

/// The device's account: identity keys, signed device keys and one-time keys on the homeserver.
extension LibOlmEncryption {
  /// One-time keys kept on the homeserver: half of what libolm can hold, so claims between two syncs never empty it.
  var oneTimeKeyTarget: Int { (account?.maxOneTimeKeys ?? 100) / 2 }

  func loadOrCreateAccount() async throws {
    if let record = try await store.read(MatrixCryptoStore.AccountRecord.self, MatrixCryptoStore.Key.account),
      record.deviceID == deviceID
    {
      do {
        account = try OlmAccount.unpickle(record.pickle, key: pickleKey)
      } catch let error as OlmError {
        throw MatrixEncryptionError(
          "the stored encryption keys cannot be opened (\(error.reason)): the pickle key differs from the one they "
            + "were saved with")
      }
      identity = try account!.identityKeys()
      return
    }
    // A new device id (or none stored yet) gets a new account: keys belong to one device.
    let created = try OlmAccount.create()
    account = created
    identity = try created.identityKeys()
    try await saveAccount(uploaded: false)
    logger.notice("created encryption keys for this device", metadata: ["device": "\(deviceID)"])
  }

  func saveAccount(uploaded: Bool? = nil, change: (inout MatrixCryptoStore.AccountRecord) -> Void = { _ in })
    async throws
  {
    guard let account else { return }
    let previous = try await store.read(MatrixCryptoStore.AccountRecord.self, MatrixCryptoStore.Key.account)
    let same = previous?.deviceID == deviceID
    var record = MatrixCryptoStore.AccountRecord(
      deviceID: deviceID, pickle: try account.pickle(key: pickleKey),
      uploaded: uploaded ?? (same && previous?.uploaded == true),
      fallbackPublishedAt: same ? previous?.fallbackPublishedAt : nil,
      forgetOldFallbackAt: same ? previous?.forgetOldFallbackAt : nil)
    change(&record)
    try await store.write(record, MatrixCryptoStore.Key.account)
  }

  /// Publishes a fallback key when the device has none yet or the last one was used (the sync no longer lists its
  /// type as unused), so a device that claims a key while the one-time keys are gone still gets a session. The one
  /// before is forgotten an hour later, once messages sent to it have surely arrived.
  /// - Parameter unusedTypes: the sync's `device_unused_fallback_key_types`; nil at start.
  func publishFallbackKeyIfNeeded(unusedTypes: [String]?) async throws {
    let now = Self.nowMilliseconds
    let forgetDue = forgetOldFallbackAt.map { now >= $0 } ?? false
    // Every sync asks: the usual answer (still unused, nothing to forget) needs no store read.
    if let unusedTypes, unusedTypes.contains("signed_curve25519"), !forgetDue { return }
    guard let account,
      let record = try await store.read(MatrixCryptoStore.AccountRecord.self, MatrixCryptoStore.Key.account)
    else { return }
    forgetOldFallbackAt = record.forgetOldFallbackAt
    if let forgetAt = record.forgetOldFallbackAt, now >= forgetAt {
      account.forgetOldFallbackKey()
      try await saveAccount { $0.forgetOldFallbackAt = nil }
      forgetOldFallbackAt = nil
    }
    let due =
      if let unusedTypes { !unusedTypes.contains("signed_curve25519") } else { record.fallbackPublishedAt == nil }
    guard due else { return }
    if try account.unpublishedFallbackKey().isEmpty { try account.generateFallbackKey() }
    let rotated = record.fallbackPublishedAt != nil
    try await uploadFallbackKey(replacing: rotated)
    logger.info("published a fallback key", metadata: ["replacesUsedOne": "\(rotated)"])
  }

  /// Uploads the account's unpublished fallback key; the one it replaces is forgotten an hour later, once messages
  /// sent to it have surely arrived.
  func uploadFallbackKey(replacing: Bool) async throws {
    guard let account else { return }
    var keys: [String: JSONValue] = [:]
    for (id, key) in try account.unpublishedFallbackKey() {
      keys["signed_curve25519:\(id)"] = try signed(["key": .string(key), "fallback": true])
    }
    // Saved before the upload, as one-time keys are.
    try await saveAccount()
    _ = try await api.uploadKeys(["fallback_keys": .object(keys)])
    account.markKeysAsPublished()
    let now = Self.nowMilliseconds
    try await saveAccount {
      $0.fallbackPublishedAt = now
      if replacing { $0.forgetOldFallbackAt = now + 3_600_000 }
    }
    if replacing { forgetOldFallbackAt = now + 3_600_000 }
  }

  /// Uploads the device keys if the homeserver does not have them yet, and one-time keys up to the target.
  /// - Parameter oneTimeKeyCount: what the last sync said is left; nil asks the homeserver.
  /// - Parameter afterStartingOver: the call after a start-over, which does not start over again.
  func publishKeys(oneTimeKeyCount: Int?, afterStartingOver: Bool = false) async throws {
    guard let account else { return }
    let record = try await store.read(MatrixCryptoStore.AccountRecord.self, MatrixCryptoStore.Key.account)
    let uploaded = record?.uploaded == true
    var count = oneTimeKeyCount
    if count == nil, uploaded {
      let answer = try await api.uploadKeys([:])
      count = answer["one_time_key_counts"]?["signed_curve25519"]?.intValue ?? 0
    }
    // The homeserver's count within 0…target: Int.min would overflow the subtraction, a large negative would ask for
    // a billion keys.
    let missing = oneTimeKeyTarget - min(max(count ?? 0, 0), oneTimeKeyTarget)
    guard !uploaded || missing > 0 else { return }
    var body: [String: JSONValue] = [:]
    if !uploaded { body["device_keys"] = try signedDeviceKeys() }
    if missing > 0 {
      let unpublished = try account.oneTimeKeys().count
      if unpublished < missing { try account.generateOneTimeKeys(missing - unpublished) }
      var keys: [String: JSONValue] = [:]
      for (id, key) in try account.oneTimeKeys() {
        keys["signed_curve25519:\(id)"] = try signed(["key": .string(key)])
      }
      body["one_time_keys"] = .object(keys)
    }
    // Saved before the upload: keys the homeserver may have taken must never be generated afresh.
    try await saveAccount()
    do {
      _ = try await api.uploadKeys(.object(body))
    } catch MatrixClientError.api(let error) where Self.isKeyIDTaken(error) {
      // The homeserver holds other keys under these ids: this state is older than what it has seen (a copy of the
      // database put back by hand). Start over as after a restore, then publish again.
      guard !afterStartingOver else { throw MatrixClientError.api(error) }
      logger.warning(
        "the homeserver holds one-time keys unknown to this state: starting over", metadata: ["error": "\(error)"])
      _ = try await startOver()
      try await publishKeys(oneTimeKeyCount: nil, afterStartingOver: true)
      return
    }
    account.markKeysAsPublished()
    try await saveAccount(uploaded: true)
    logger.info(
      "published encryption keys",
      metadata: ["deviceKeys": "\(!uploaded)", "oneTimeKeys": "\(max(missing, 0))"])
  }

  /// Synapse's answer to a one-time key uploaded under an id it holds another key for ("One time key
  /// signed_curve25519:AAAAAQ already exists").
  static func isKeyIDTaken(_ error: MatrixAPIError) -> Bool {
    (error.message ?? "").lowercased().contains("already exists")
  }

  func signedDeviceKeys() throws -> JSONValue {
    try signed([
      "user_id": .string(userID), "device_id": .string(deviceID),
      "algorithms": [.string(MatrixAlgorithm.olm), .string(MatrixAlgorithm.megolm)],
      "keys": [
        "curve25519:\(deviceID)": .string(identity.curve25519), "ed25519:\(deviceID)": .string(identity.ed25519),
      ],
    ])
  }

  /// The object with the device's signature added (over its canonical JSON).
  func signed(_ object: [String: JSONValue]) throws -> JSONValue {
    guard let account else { throw MatrixEncryptionError("no account") }
    let signature = try account.sign(CanonicalJSON.signable(object))
    var object = object
    object["signatures"] = [userID: ["ed25519:\(deviceID)": .string(signature)]]
    return .object(object)
  }
}
