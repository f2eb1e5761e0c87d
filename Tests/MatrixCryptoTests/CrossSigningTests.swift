import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixCrypto

/// The pieces of the bot's cross-signing identity: the recovery key's text form, secret storage's cipher (both
/// against values computed independently with Python's hashlib and pycryptodome), the chain check, and the identity
/// as `LibOlmEncryption` makes, keeps and recovers it against the in-process homeserver of `LibOlmEncryptionTests`.
@Suite struct CrossSigningTests {
  static let key = (0..<32).map { UInt8($0) }

  @Test("a recovery key reads as Element shows it, and typos are caught")
  func recoveryKeyText() throws {
    let key = RecoveryKey(bytes: Self.key)
    #expect(key.displayed == "EsSz ykH7 LCZx 7Cae cmKD wcmY JRXi Ybtu 8iQ3 t8Ez nRwK pUY1")
    #expect(try RecoveryKey(parsing: "EsSzykH7LCZx7CaecmKDwcmYJRXiYbtu8iQ3t8EznRwKpUY1\n") == key)
    #expect(throws: RecoveryKey.ParseError.wrongParity) {
      try RecoveryKey(parsing: "EsSz ykH7 LCZx 7Cae cmKD wcmY JRXi Ybtu 8iQ3 t8Ez nRwK pUY2")
    }
    #expect(throws: RecoveryKey.ParseError.notBase58("0")) { try RecoveryKey(parsing: "EsSz 0kH7") }
    #expect(throws: RecoveryKey.ParseError.wrongLength(15)) { try RecoveryKey(parsing: "EsSz ykH7 LCZx 7Cae cmKD") }
    let fresh = RecoveryKey.generate()
    #expect(try RecoveryKey(parsing: fresh.displayed) == fresh)
    #expect(fresh.displayed.hasPrefix("Es"))
  }

  @Test("secret storage's cipher gives the reference ciphertext and MAC, and refuses another key")
  func secretStorageCipher() throws {
    let iv = Array(100..<116).map { UInt8($0) }
    let sealed = try SecretStorageCipher.encrypt(
      Array("secret seed text".utf8), name: "m.cross_signing.master", key: Self.key, iv: iv)
    #expect(sealed.iv == "ZGVmZ2hpamtsbW5vcHFycw==")
    #expect(sealed.ciphertext == "ReitvtK9L3oyqf9yGlkvNg==")
    #expect(sealed.mac == "UQTWHkuYTaE9N8XCedFPmVrFqlzbFZ8UH2YtaMWUQIw=")
    let opened = try SecretStorageCipher.decrypt(sealed, name: "m.cross_signing.master", key: Self.key)
    #expect(String(decoding: opened, as: UTF8.self) == "secret seed text")
    #expect(throws: SecretStorageCipher.Failure.self) {
      try SecretStorageCipher.decrypt(sealed, name: "m.cross_signing.self_signing", key: Self.key)
    }
    let check = try SecretStorageCipher.keyCheck(key: Self.key)
    #expect(SecretStorageCipher.matches(key: Self.key, iv: check.iv, mac: check.mac))
    #expect(!SecretStorageCipher.matches(key: RecoveryKey.generate().bytes, iv: check.iv, mac: check.mac))
    let random = try SecretStorageCipher.encrypt([1, 2, 3], name: "n", key: Self.key)
    #expect(try #require(Base64.decode(random.iv))[8] & 0x80 == 0, "bit 63 of the IV is clear")
  }

  @Test("the chain: a device counts as cross-signed only through a self-signing key the master key signed")
  func chain() throws {
    let user = "@u:localhost"
    let keys = try CrossSigningKeys.generate()
    let device = try OlmAccount.create()
    let identity = try device.identityKeys()
    let deviceObject: [String: JSONValue] = [
      "user_id": .string(user), "device_id": "DEV", "algorithms": ["m.megolm.v1.aes-sha2"],
      "keys": ["ed25519:DEV": .string(identity.ed25519), "curve25519:DEV": .string(identity.curve25519)],
    ]
    let signedDevice = try CrossSigningKeys.adding(signatureOf: keys.selfSigning, to: deviceObject, userID: user)
    func answer(selfSigning: JSONValue) throws -> JSONValue {
      [
        "master_keys": [user: try keys.publicObject(.master, userID: user)],
        "self_signing_keys": [user: selfSigning],
      ]
    }
    let good = CrossSigningChain(
      user: user, answer: try answer(selfSigning: try keys.publicObject(.selfSigning, userID: user)))
    #expect(good.masterKey == keys.master.publicKey)
    #expect(good.isCrossSigned(device: signedDevice))
    #expect(!good.isCrossSigned(device: .object(deviceObject)), "an unsigned device")
    var tampered = deviceObject
    tampered["device_id"] = "OTHER"
    var tamperedSigned = try #require(signedDevice.objectValue)
    tamperedSigned["device_id"] = "OTHER"
    #expect(!good.isCrossSigned(device: .object(tamperedSigned)), "a signature over other keys")

    // A self-signing key the master key did not sign breaks the chain for every device.
    let stranger = try CrossSigningKeys.generate()
    guard case .object(var unsigned) = try stranger.publicObject(.selfSigning, userID: user) else { return }
    unsigned["signatures"] = nil
    let broken = CrossSigningChain(user: user, answer: try answer(selfSigning: .object(unsigned)))
    #expect(broken.selfSigningKey == nil)
    #expect(broken.problem == "no self-signing key is published" || broken.problem?.contains("not signed") == true)
    #expect(!broken.isCrossSigned(device: signedDevice))
    #expect(CrossSigningChain(user: user, answer: [:]).problem?.contains("no master key") == true)
  }
}

extension LibOlmEncryptionTests {
  @Test("the identity: made and published once, the device signed, secrets stored; kept across a restart")
  func identityIsMadeOnceAndKept() async throws {
    let world = try World()
    let store = InMemoryTransportStateStore()
    let folder = TestScratch.path("recovery-key")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("recovery-key.txt")
    let first = machine(world, store: store, options: MatrixIdentityOptions(localpart: "bot", recoveryKeyFile: file))
    try await first.start()
    let master = try #require(await first.identityStatus()?.masterKey)
    let published = world.seen.withLock { $0.crossSigning }
    #expect(published["master_key"]?["keys"]?["ed25519:\(master)"]?.stringValue == master)
    #expect(published["user_signing_key"] != nil)

    // The device's keys as the homeserver would now return them carry the self-signing key's signature.
    let signatures = world.seen.withLock { $0.signatureUploads }
    let signedDevices = signatures.compactMap { $0[Self.bot]?["BOTDEVICE"] }
    let device = try #require(signedDevices.first)
    let chain = CrossSigningChain(
      user: Self.bot,
      answer: [
        "master_keys": [Self.bot: published["master_key"] ?? .null],
        "self_signing_keys": [Self.bot: published["self_signing_key"] ?? .null],
      ])
    #expect(chain.isCrossSigned(device: device))
    #expect(signatures.contains { $0[Self.bot]?[master] != nil }, "the master key is signed by the device")

    // Secret storage: a default key whose check matches the recovery key in the file, and the three secrets.
    let text = try String(contentsOf: file, encoding: .utf8)
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let typed = try #require(lines.first { $0.hasPrefix("Es") })
    let recovery = try RecoveryKey(parsing: typed)
    let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
    #expect(await first.recoveryKey() == recovery.displayed)
    let data = world.seen.withLock { $0.accountData }
    let keyID = try #require(data["m.secret_storage.default_key"]?["key"]?.stringValue)
    let description = try #require(data["m.secret_storage.key.\(keyID)"])
    #expect(
      SecretStorageCipher.matches(
        key: recovery.bytes, iv: description["iv"]?.stringValue ?? "", mac: description["mac"]?.stringValue ?? ""))
    for name in ["m.cross_signing.master", "m.cross_signing.self_signing", "m.cross_signing.user_signing"] {
      #expect(data[name]?["encrypted"]?[keyID]?["ciphertext"] != nil, "\(name) is in secret storage")
    }

    // A restart on the same database: the same master key, nothing published again.
    let uploadsBefore = world.seen.withLock { $0.signatureUploads.count }
    let second = machine(world, store: store)
    try await second.start()
    #expect(await second.identityStatus()?.masterKey == master)
    #expect(world.seen.withLock { $0.crossSigning["master_key"] } == published["master_key"])
    #expect(world.seen.withLock { $0.signatureUploads.count } == uploadsBefore, "the chain was intact")

    // The device's signature lost on the homeserver: the next start puts it back, with the same keys.
    world.seen.withLock { seen in
      guard case .object(var device)? = seen.botDevice else { return }
      device["signatures"] = [
        Self.bot: device["signatures"]?[Self.bot]?["ed25519:BOTDEVICE"].map { ["ed25519:BOTDEVICE": $0] } ?? [:]
      ]
      seen.botDevice = .object(device)
    }
    let third = machine(world, store: store)
    try await third.start()
    let repaired = try #require(world.seen.withLock { $0.signatureUploads.last }?[Self.bot]?["BOTDEVICE"])
    #expect(chain.isCrossSigned(device: repaired), "the device is signed again")
    #expect(world.seen.withLock { $0.crossSigning["master_key"] } == published["master_key"], "no new identity")
  }

  @Test("a new database: recovered with the recovery key, refused with one clear sentence without it")
  func identityOnANewDatabase() async throws {
    let world = try World()
    let first = machine(world, store: InMemoryTransportStateStore())
    try await first.start()
    let master = try #require(await first.identityStatus()?.masterKey)
    let recovery = try #require(await first.recoveryKey())

    let without = machine(world, store: InMemoryTransportStateStore())
    let deviceBefore = world.seen.withLock { $0.botDevice }
    await #expect(throws: MatrixCrossSigningError.identityNotHeld(userID: Self.bot, masterKey: master)) {
      try await without.start()
    }
    #expect(
      world.seen.withLock { $0.botDevice } == deviceBefore,
      "refused before publishing anything: no device keys the identity never signs")
    let sentence = MatrixCrossSigningError.identityNotHeld(userID: Self.bot, masterKey: master).description
    #expect(sentence.contains("encryption.recoveryKey") && sentence.contains("--reset-matrix-identity"))

    let wrong = machine(
      world, store: InMemoryTransportStateStore(),
      options: MatrixIdentityOptions(localpart: "bot", recoveryKey: RecoveryKey.generate()))
    await #expect(throws: MatrixCrossSigningError.recoveryKeyWrong(userID: Self.bot)) { try await wrong.start() }

    let signaturesBefore = world.seen.withLock { $0.signatureUploads.count }
    let recovered = machine(
      world, store: InMemoryTransportStateStore(),
      options: MatrixIdentityOptions(localpart: "bot", recoveryKey: try RecoveryKey(parsing: recovery)))
    try await recovered.start()
    #expect(await recovered.identityStatus()?.masterKey == master, "the same identity")
    #expect(world.seen.withLock { $0.signatureUploads.count } > signaturesBefore, "the new database signs its device")

    let reset = machine(
      world, store: InMemoryTransportStateStore(), options: MatrixIdentityOptions(localpart: "bot", resetIdentity: true)
    )
    try await reset.start()
    #expect(await reset.identityStatus()?.masterKey != master, "a reset on purpose makes a new identity")
  }

  @Test("user-interactive auth is answered with the password; without one the error says what is missing")
  func interactiveAuth() async throws {
    let world = try World()
    world.seen.withLock { $0.asksForAuth = true }
    let tokenOnly = machine(world, store: InMemoryTransportStateStore())
    await #expect(throws: MatrixCrossSigningError.passwordNeeded) { try await tokenOnly.start() }
    #expect(MatrixCrossSigningError.passwordNeeded.description.contains("add the password"))

    let withPassword = machine(
      world, store: InMemoryTransportStateStore(),
      options: MatrixIdentityOptions(password: "hunter2", localpart: "bot"))
    try await withPassword.start()
    let auth = try #require(world.seen.withLock { $0.authAnswers.first })
    #expect(auth["type"] == "m.login.password")
    #expect(auth["session"] == "uia-session")
    #expect(auth["identifier"]?["user"] == "bot")
    #expect(await withPassword.identityStatus() != nil)
  }

  @Test("Element's policy: a device its owner did not cross-sign gets no room key, and its messages are not acted on")
  func crossSignedPolicy() async throws {
    let world = try World()
    let machine = machine(world, store: InMemoryTransportStateStore(), options: MatrixIdentityOptions(localpart: "bot"))
    try await machine.start()
    _ = try await machine.encrypt(["body": "a"], type: "m.room.message", room: Self.room, transactionID: "txn-a")
    #expect(world.seen.withLock { $0.toDevice.isEmpty }, "no key went to the unverified peer device")
    #expect(await machine.sharedRooms() == [Self.room], "every trusted device has the key (there is none)")
  }
}
