import ChatBridge
import Foundation
import MatrixModel

/// The bot user's cross-signing identity: made and published once, its private keys kept in the database (under the
/// pickle key) and in the account's secret storage (under the recovery key), checked on every start, and the
/// device signed by it, so clients with Element's policy count the bot's device as secure.
extension LibOlmEncryption {
  static let crossSigningKey = "e2ee:cross-signing"

  /// Makes, recovers or checks the identity, then makes sure the published chain reaches this device.
  /// Throws `identityNotHeld` when the account has a cross-signing identity this database does not hold and cannot
  /// recover (no recovery key, no reset asked for): `establishIdentity` would stop there anyway, after the device's
  /// keys went up.
  func refuseIdentityNotHeld() async throws {
    guard !identityOptions.resetIdentity, identityOptions.recoveryKey == nil else { return }
    let published = CrossSigningChain(user: userID, answer: try await api.queryKeys(users: [userID]))
    guard let master = published.masterKey else { return }
    let stored = try await store.read(StoredCrossSigningKeys.self, Self.crossSigningKey)
    if try stored.map({ try $0.open(pickleKey: pickleKey) })?.master.publicKey != master {
      throw MatrixCrossSigningError.identityNotHeld(userID: userID, masterKey: master)
    }
  }

  func establishIdentity() async throws {
    let answer = try await api.queryKeys(users: [userID])
    let published = CrossSigningChain(user: userID, answer: answer)
    var stored = try await store.read(StoredCrossSigningKeys.self, Self.crossSigningKey)
    var keys = try stored.map { try $0.open(pickleKey: pickleKey) }
    var uploaded = false

    if let master = published.masterKey, keys?.master.publicKey != master {
      if identityOptions.resetIdentity {
        logger.warning(
          "replacing the bot's cross-signing identity on request; people in encrypted rooms will see that it changed",
          metadata: ["oldMasterKey": "\(master)"])
        keys = nil
        stored = nil
      } else if let recoveryKey = identityOptions.recoveryKey {
        let recovered = try await recoverFromSecretStorage(storageKey: recoveryKey, published: published)
        keys = recovered.keys
        var record = try StoredCrossSigningKeys(keys: recovered.keys, pickleKey: pickleKey)
        try record.remember(storageKey: recovered.storageKey, id: recovered.storageKeyID, pickleKey: pickleKey)
        try await store.write(record, Self.crossSigningKey)
        stored = record
        logger.notice(
          "recovered the bot's cross-signing identity from secret storage", metadata: ["masterKey": "\(master)"])
      } else {
        throw MatrixCrossSigningError.identityNotHeld(userID: userID, masterKey: master)
      }
    }

    if keys == nil || published.masterKey == nil || published.selfSigningKey != keys?.selfSigning.publicKey {
      let fresh = try keys ?? CrossSigningKeys.generate()
      if stored == nil {
        // Kept before the upload: keys the homeserver may have taken must never be lost to a crash.
        let record = try StoredCrossSigningKeys(keys: fresh, pickleKey: pickleKey)
        try await store.write(record, Self.crossSigningKey)
        stored = record
      }
      try await api.uploadSigningKeys(
        try fresh.uploadBody(userID: userID), localpart: identityOptions.localpart,
        password: identityOptions.password)
      keys = fresh
      uploaded = true
      logger.notice("published the bot's cross-signing identity", metadata: ["masterKey": "\(fresh.master.publicKey)"])
    }
    guard let keys, var stored else { return }
    crossSigning = keys

    if stored.storageKeyID == nil || uploaded {
      stored = try await saveToSecretStorage(keys, record: stored)
    }
    let current = uploaded ? try await api.queryKeys(users: [userID]) : answer
    try await signDeviceIfNeeded(keys, answer: current)
  }

  /// Signs this device with the self-signing key, and the master key with this device, where the published keys
  /// lack those signatures.
  private func signDeviceIfNeeded(_ keys: CrossSigningKeys, answer: JSONValue) async throws {
    let chain = CrossSigningChain(user: userID, answer: answer)
    var body: [String: JSONValue] = [:]
    let device = answer["device_keys"]?[userID]?[deviceID]
    if device == nil || !chain.isCrossSigned(device: device ?? .null) {
      let published = try device ?? signedDeviceKeys()
      guard var object = published.objectValue else { return }
      object["unsigned"] = nil
      body[deviceID] = try CrossSigningKeys.adding(signatureOf: keys.selfSigning, to: object, userID: userID)
    }
    if !chain.masterIsSigned(byDevice: deviceID, key: identity.ed25519, answer: answer),
      let master = try keys.publicObject(.master, userID: userID).objectValue
    {
      body[keys.master.publicKey] = try signed(master)
    }
    guard !body.isEmpty else { return }
    try await api.uploadSignatures([userID: .object(body)])
    logger.info(
      "signed the bot's device with its cross-signing identity",
      metadata: ["device": "\(deviceID)", "signatures": "\(body.count)"])
  }

  /// Writes the three seeds into the account's secret storage under the recovery key (the configured one, else the
  /// one already made, else a new one written to `recoveryKeyFile`), and makes that key the default.
  private func saveToSecretStorage(_ keys: CrossSigningKeys, record: StoredCrossSigningKeys) async throws
    -> StoredCrossSigningKeys
  {
    var record = record
    let storageKey: RecoveryKey
    var made = false
    if let configured = identityOptions.recoveryKey {
      storageKey = configured
    } else if let known = try record.openStorageKey(pickleKey: pickleKey) {
      storageKey = known
    } else {
      storageKey = RecoveryKey.generate()
      made = true
    }
    let keyID = record.storageKeyID ?? Self.newKeyID()
    let check = try SecretStorageCipher.keyCheck(key: storageKey.bytes)
    try await api.setAccountData(
      user: userID, type: MatrixEventType.secretStorageKey(keyID),
      content: MatrixSecretStorageKeyDescription(
        algorithm: SecretStorageCipher.algorithm, name: "awfulbot recovery key", iv: check.iv, mac: check.mac))
    for usage in CrossSigningKeys.Usage.allCases {
      let sealed = try SecretStorageCipher.encrypt(
        Array(Base64.unpadded(keys.seeds[usage] ?? []).utf8), name: usage.secretName, key: storageKey.bytes)
      try await api.setAccountData(
        user: userID, type: usage.secretName, content: MatrixStoredSecret(encrypted: [keyID: sealed]))
    }
    try await api.setAccountData(
      user: userID, type: MatrixSecretStorageDefaultKey.eventType, content: MatrixSecretStorageDefaultKey(key: keyID))
    try record.remember(storageKey: storageKey, id: keyID, pickleKey: pickleKey)
    try await store.write(record, Self.crossSigningKey)
    if made { writeRecoveryKeyFile(storageKey) }
    logger.info("stored the cross-signing keys in secret storage", metadata: ["keyID": "\(keyID)"])
    return record
  }

  /// The three seeds from secret storage, checked against what the account publishes.
  private func recoverFromSecretStorage(storageKey: RecoveryKey, published: CrossSigningChain) async throws
    -> (keys: CrossSigningKeys, storageKey: RecoveryKey, storageKeyID: String)
  {
    guard
      let keyID = try await api.accountData(
        user: userID, type: MatrixSecretStorageDefaultKey.eventType, as: MatrixSecretStorageDefaultKey.self)?.key
    else { throw MatrixCrossSigningError.secretStorageIncomplete("it has no default key") }
    guard
      let description = try await api.accountData(
        user: userID, type: MatrixEventType.secretStorageKey(keyID), as: MatrixSecretStorageKeyDescription.self),
      description.algorithm == SecretStorageCipher.algorithm
    else {
      throw MatrixCrossSigningError.secretStorageIncomplete("its default key \(keyID) is missing or of another kind")
    }
    if let iv = description.iv, let mac = description.mac,
      !SecretStorageCipher.matches(key: storageKey.bytes, iv: iv, mac: mac)
    {
      throw MatrixCrossSigningError.recoveryKeyWrong(userID: userID)
    }
    var seeds: [CrossSigningKeys.Usage: [UInt8]] = [:]
    for usage in CrossSigningKeys.Usage.allCases {
      guard
        let sealed = try await api.accountData(user: userID, type: usage.secretName, as: MatrixStoredSecret.self)?
          .secret(under: keyID)
      else { throw MatrixCrossSigningError.secretStorageIncomplete("\(usage.secretName) is not stored under it") }
      let plain: [UInt8]
      do {
        plain = try SecretStorageCipher.decrypt(sealed, name: usage.secretName, key: storageKey.bytes)
      } catch {
        throw MatrixCrossSigningError.recoveryKeyWrong(userID: userID)
      }
      guard let seed = Base64.decode(String(decoding: plain, as: UTF8.self)) else {
        throw MatrixCrossSigningError.secretStorageIncomplete("\(usage.secretName) is not a key")
      }
      seeds[usage] = seed
    }
    let keys = try CrossSigningKeys(seeds: seeds)
    guard keys.master.publicKey == published.masterKey,
      published.selfSigningKey == nil || keys.selfSigning.publicKey == published.selfSigningKey
    else { throw MatrixCrossSigningError.recoveredKeysDiffer(userID: userID) }
    return (keys, storageKey, keyID)
  }

  /// Hands a new recovery key to the operator in a file only the bot's user can read; the log names the file,
  /// never the key.
  private func writeRecoveryKeyFile(_ key: RecoveryKey) {
    guard let file = identityOptions.recoveryKeyFile else {
      logger.notice("made a recovery key for the bot's cross-signing identity; it is kept in the database only")
      return
    }
    let text = """
      Recovery key of the Matrix account \(userID) (its cross-signing identity, made \(Date())):

          \(key.displayed)

      Keep it somewhere safe, outside this machine (a password manager). With it, a new database recovers the same
      identity: put it in the config as encryption.recoveryKey (or {"env": "…"}). Without it, a lost database means
      a new identity that everyone in encrypted rooms sees change. Delete this file once the key is kept elsewhere.

      """
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
      try Data(text.utf8).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      logger.notice(
        "wrote the recovery key of the bot's Matrix identity; keep it safe and delete the file",
        metadata: ["file": "\(file.path)"])
    } catch {
      logger.error(
        "could not write the recovery key file; the key stays in the database",
        metadata: ["file": "\(file.path)", "error": "\(error)"])
    }
  }

  static func newKeyID() -> String {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in letters.randomElement(using: &generator)! })
  }
}
