import ChatBridge
import Foundation
import MatrixModel

/// Olm: device-to-device messages. Reads `m.room.encrypted` to-device events (room keys come this way) and sends
/// room keys to other devices, claiming a one-time key for a device the bot has no session with yet.
extension LibOlmEncryption {
  /// Decrypts one to-device event and stores the room key inside; returns the Megolm session it brought.
  func receiveToDevice(_ event: MatrixEvent) async throws -> MatrixMegolmSessionID? {
    if let request = event.content(as: MatrixRoomKeyRequest.self) {
      try await answerKeyRequest(request, from: event.sender)
      return nil
    }
    guard let encrypted = event.content(as: MatrixEncrypted.self), encrypted.algorithm == MatrixAlgorithm.olm,
      let sender = event.sender, let senderKey = encrypted.senderKey
    else { return nil }
    guard let mine = encrypted.olmCiphertext(for: identity.curve25519), let type = mine.type, let body = mine.body
    else { throw MatrixEncryptionError("no ciphertext for this device") }
    let plaintext: String
    do {
      plaintext = try await olmDecrypt(senderKey: senderKey, type: type, body: body)
    } catch {
      await unwedge(sender: sender, senderKey: senderKey)
      throw error
    }
    guard let payload = CanonicalJSON.parse(plaintext)?.decoded(as: MatrixOlmPayload.self), payload.sender == sender,
      payload.recipient == userID, payload.recipientKeys?.ed25519 == identity.ed25519
    else { throw MatrixEncryptionError("an Olm message not meant for this device or from someone else") }
    let signingKey = payload.keys?.ed25519
    // The event inside, as a to-device event of the sender, read by its type.
    let inner = MatrixEvent(type: payload.type ?? "", sender: sender, content: payload.content ?? [:])
    if let key = inner.content(as: MatrixRoomKey.self) {
      return try await storeRoomKey(key, sender: sender, senderKey: senderKey, signingKey: signingKey)
    }
    if let key = inner.content(as: MatrixForwardedRoomKey.self) {
      return try await storeForwardedRoomKey(key, sender: sender, senderKey: senderKey)
    }
    return nil
  }

  /// Tries the sessions with that device; a pre-key message no session matches starts a new inbound session (its
  /// one-time key is then removed from the account, so it is never accepted twice).
  private func olmDecrypt(senderKey: String, type: Int, body: String) async throws -> String {
    var sessions = try await loadOlmSessions(curve25519: senderKey)
    for (index, session) in sessions.enumerated() {
      if type == 0, !session.matchesInbound(theirIdentityKey: senderKey, preKeyMessage: body) { continue }
      guard let plaintext = try? session.decrypt(type: type, body: body) else { continue }
      sessions.remove(at: index)
      sessions.insert(session, at: 0)
      try await saveOlmSessions(sessions, curve25519: senderKey)
      return plaintext
    }
    guard type == 0, let account else { throw MatrixEncryptionError("no Olm session can read this message") }
    let session = try OlmSession.inbound(account: account, theirIdentityKey: senderKey, preKeyMessage: body)
    let plaintext = try session.decrypt(type: type, body: body)
    try account.removeOneTimeKeys(for: session)
    sessions.insert(session, at: 0)
    try await saveOlmSessions(sessions, curve25519: senderKey)
    try await saveAccount()
    return plaintext
  }

  func loadOlmSessions(curve25519: String) async throws -> [OlmSession] {
    if let known = olmSessions[curve25519] { return known }
    let pickles = try await store.read([String].self, MatrixCryptoStore.Key.olmSessions(curve25519: curve25519)) ?? []
    let sessions = try pickles.map { try OlmSession.unpickle($0, key: pickleKey) }
    olmSessions[curve25519] = sessions
    return sessions
  }

  /// Keeps the five most recent sessions per device (older ones are never chosen for sending again).
  func saveOlmSessions(_ sessions: [OlmSession], curve25519: String) async throws {
    let kept = Array(sessions.prefix(5))
    olmSessions[curve25519] = kept
    try await store.write(
      try kept.map { try $0.pickle(key: pickleKey) }, MatrixCryptoStore.Key.olmSessions(curve25519: curve25519))
  }

  /// Olm-encrypts `content` of event type `type` for each device, claiming one-time keys where no session exists.
  /// Devices that have no one-time key left are skipped (and returned), so one device cannot block a room.
  func olmEncrypt<Content: MatrixEventContent>(
    _ content: Content, for targets: [(user: String, device: MatrixCryptoStore.DeviceRecord)]
  ) async throws -> (messages: [String: [String: JSONValue]], reached: [String]) {
    let inner = try JSONValue.encoding(content)
    var needSession: [String: [String]] = [:]
    for target in targets where try await loadOlmSessions(curve25519: target.device.curve25519).isEmpty {
      needSession[target.user, default: []].append(target.device.deviceID)
    }
    if !needSession.isEmpty { try await claimSessions(needSession, targets: targets) }
    var messages: [String: [String: JSONValue]] = [:]
    var reached: [String] = []
    for target in targets {
      var sessions = try await loadOlmSessions(curve25519: target.device.curve25519)
      guard let session = sessions.first else { continue }
      let payload = MatrixOlmPayload(
        type: Content.eventType, content: inner, sender: userID, senderDevice: deviceID, senderKey: identity.ed25519,
        recipient: target.user, recipientKey: target.device.ed25519)
      let encrypted = try session.encrypt(CanonicalJSON.string(payload))
      sessions[0] = session
      try await saveOlmSessions(sessions, curve25519: target.device.curve25519)
      let message = MatrixEncrypted(
        algorithm: MatrixAlgorithm.olm, senderKey: identity.curve25519,
        ciphertext: .olm([target.device.curve25519: MatrixOlmCiphertext(type: encrypted.type, body: encrypted.body)]))
      messages[target.user, default: [:]][target.device.deviceID] = try JSONValue.encoding(message)
      reached.append("\(target.user)|\(target.device.deviceID)")
    }
    return (messages, reached)
  }

  /// A new outbound Olm session with this device (claiming one of its one-time keys), used for what is sent next.
  func startNewOlmSession(user: String, device: MatrixCryptoStore.DeviceRecord) async throws {
    try await claimSessions([user: [device.deviceID]], targets: [(user: user, device: device)])
  }

  /// `/keys/claim`, signatures on the one-time keys checked against the device's ed25519 key, one new session each.
  private func claimSessions(
    _ wanted: [String: [String]], targets: [(user: String, device: MatrixCryptoStore.DeviceRecord)]
  ) async throws {
    guard let account else { return }
    let answer = try await api.claimKeys(wanted)
    for target in targets where wanted[target.user]?.contains(target.device.deviceID) == true {
      guard let claimed = answer["one_time_keys"]?[target.user]?[target.device.deviceID]?.objectValue,
        let (_, keyObject) = claimed.first(where: { $0.key.hasPrefix("signed_curve25519:") }),
        let object = keyObject.objectValue, let key = object["key"]?.stringValue,
        let signature = object["signatures"]?[target.user]?["ed25519:\(target.device.deviceID)"]?.stringValue,
        OlmSignature.verify(key: target.device.ed25519, message: CanonicalJSON.signable(object), signature: signature)
      else {
        logger.warning(
          "no usable one-time key for a device; it cannot read this room's messages for now",
          metadata: ["user": "\(target.user)", "device": "\(target.device.deviceID)"])
        continue
      }
      let session = try OlmSession.outbound(
        account: account, theirIdentityKey: target.device.curve25519, theirOneTimeKey: key)
      // The new session goes first, so it is the one used from now on; older ones still read what comes over them.
      let older = try await loadOlmSessions(curve25519: target.device.curve25519)
      try await saveOlmSessions([session] + older, curve25519: target.device.curve25519)
    }
  }
}
