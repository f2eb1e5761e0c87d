import ChatBridge
import Crypto
import Foundation
import MatrixModel

/// The bot user's three cross-signing keys (spec: "Cross-signing"): the master key is its identity, the self-signing
/// key signs its devices, the user-signing key would sign other users (the bot verifies nobody, but clients expect
/// the three together). Each is an ed25519 key from a 32-byte seed; the seeds are the secrets kept in secret storage.
struct CrossSigningKeys {
  enum Usage: String, CaseIterable, Sendable {
    case master
    case selfSigning = "self_signing"
    case userSigning = "user_signing"

    /// The secret storage name of this key's seed.
    var secretName: String { MatrixEventType.crossSigningSecret(rawValue) }
  }

  let master: OlmPkSigning
  let selfSigning: OlmPkSigning
  let userSigning: OlmPkSigning
  let seeds: [Usage: [UInt8]]

  init(seeds: [Usage: [UInt8]]) throws {
    guard let master = seeds[.master], let selfSigning = seeds[.selfSigning], let userSigning = seeds[.userSigning]
    else { throw MatrixEncryptionError("a cross-signing seed is missing") }
    self.master = try OlmPkSigning(seed: master)
    self.selfSigning = try OlmPkSigning(seed: selfSigning)
    self.userSigning = try OlmPkSigning(seed: userSigning)
    self.seeds = seeds
  }

  static func generate() throws -> CrossSigningKeys {
    try CrossSigningKeys(
      seeds: Dictionary(uniqueKeysWithValues: Usage.allCases.map { ($0, OlmPkSigning.generateSeed()) }))
  }

  func key(_ usage: Usage) -> OlmPkSigning {
    switch usage {
    case .master: master
    case .selfSigning: selfSigning
    case .userSigning: userSigning
    }
  }

  /// The public key object as `/keys/device_signing/upload` takes it; the master key signs the other two.
  func publicObject(_ usage: Usage, userID: String) throws -> JSONValue {
    let publicKey = key(usage).publicKey
    let object: [String: JSONValue] = [
      "user_id": .string(userID), "usage": [.string(usage.rawValue)],
      "keys": .object(["ed25519:\(publicKey)": .string(publicKey)]),
    ]
    guard usage != .master else { return .object(object) }
    return try Self.adding(signatureOf: master, to: object, userID: userID)
  }

  /// The body of `/keys/device_signing/upload`.
  func uploadBody(userID: String) throws -> [String: JSONValue] {
    [
      "master_key": try publicObject(.master, userID: userID),
      "self_signing_key": try publicObject(.selfSigning, userID: userID),
      "user_signing_key": try publicObject(.userSigning, userID: userID),
    ]
  }

  /// `object` with `signer`'s signature (over its canonical JSON) added to what it carries.
  static func adding(signatureOf signer: OlmPkSigning, to object: [String: JSONValue], userID: String) throws
    -> JSONValue
  {
    let signature = try signer.sign(CanonicalJSON.signable(object))
    var object = object
    var signatures = object["signatures"]?.objectValue ?? [:]
    var mine = signatures[userID]?.objectValue ?? [:]
    mine["ed25519:\(signer.publicKey)"] = .string(signature)
    signatures[userID] = .object(mine)
    object["signatures"] = .object(signatures)
    return .object(object)
  }
}

/// The seeds as the bot keeps them in its own database: each encrypted (secret storage's cipher) under a key derived
/// from the pickle key, so the database alone opens nothing, like the libolm pickles beside them.
struct StoredCrossSigningKeys: Codable, Sendable {
  var masterKey: String
  var seeds: [String: SecretStorageCipher.Encrypted]
  /// The secret storage key the seeds were last stored under on the homeserver, likewise encrypted; nil before.
  var storageKeyID: String?
  var storageKey: SecretStorageCipher.Encrypted?

  static func localKey(pickleKey: [UInt8]) -> [UInt8] {
    Array(SHA256.hash(data: Array("awfulbot cross-signing seeds".utf8) + pickleKey))
  }

  init(keys: CrossSigningKeys, pickleKey: [UInt8]) throws {
    let key = Self.localKey(pickleKey: pickleKey)
    masterKey = keys.master.publicKey
    seeds = [:]
    for usage in CrossSigningKeys.Usage.allCases {
      seeds[usage.rawValue] = try SecretStorageCipher.encrypt(
        keys.seeds[usage] ?? [], name: usage.secretName, key: key)
    }
  }

  func open(pickleKey: [UInt8]) throws -> CrossSigningKeys {
    let key = Self.localKey(pickleKey: pickleKey)
    var opened: [CrossSigningKeys.Usage: [UInt8]] = [:]
    for usage in CrossSigningKeys.Usage.allCases {
      guard let sealed = seeds[usage.rawValue] else {
        throw MatrixEncryptionError("a stored cross-signing seed is missing")
      }
      opened[usage] = try SecretStorageCipher.decrypt(sealed, name: usage.secretName, key: key)
    }
    return try CrossSigningKeys(seeds: opened)
  }

  mutating func remember(storageKey: RecoveryKey, id: String, pickleKey: [UInt8]) throws {
    storageKeyID = id
    self.storageKey = try SecretStorageCipher.encrypt(
      storageKey.bytes, name: "awfulbot.secret_storage_key", key: Self.localKey(pickleKey: pickleKey))
  }

  func openStorageKey(pickleKey: [UInt8]) throws -> RecoveryKey? {
    guard let storageKey else { return nil }
    return RecoveryKey(
      bytes: try SecretStorageCipher.decrypt(
        storageKey, name: "awfulbot.secret_storage_key", key: Self.localKey(pickleKey: pickleKey)))
  }
}
