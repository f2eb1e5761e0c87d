import ChatBridge
import Foundation
import MatrixModel

/// Megolm: room messages. Inbound sessions come from `m.room_key` (and `m.forwarded_room_key`); the bot's own
/// session per room is shared with every joined device before it is used, and replaced when the membership changes
/// or the room's rotation period (time or messages) runs out.
extension LibOlmEncryption {
  /// An `m.room_key` from the device that made the session (`senderKey`, which claimed `signingKey`).
  func storeRoomKey(_ content: MatrixRoomKey, sender: String, senderKey: String, signingKey: String?) async throws
    -> MatrixMegolmSessionID?
  {
    guard content.algorithm == MatrixAlgorithm.megolm, let room = content.roomID, let sessionID = content.sessionID,
      let key = content.sessionKey
    else { return nil }
    return try await storeSessionKey(
      key, room: room, sessionID: sessionID, sender: sender, senderKey: senderKey, origin: senderKey,
      claimed: signingKey, forwarded: false)
  }

  /// An `m.forwarded_room_key`: a device (`senderKey`) passing on a session another one made.
  func storeForwardedRoomKey(_ content: MatrixForwardedRoomKey, sender: String, senderKey: String) async throws
    -> MatrixMegolmSessionID?
  {
    guard content.algorithm == MatrixAlgorithm.megolm, let room = content.roomID, let sessionID = content.sessionID,
      let key = content.sessionKey
    else { return nil }
    // A forwarded key names the device that made the session; the forwarder only carried it.
    return try await storeSessionKey(
      key, room: room, sessionID: sessionID, sender: sender, senderKey: senderKey,
      origin: content.senderKey ?? senderKey, claimed: content.senderClaimedEd25519Key, forwarded: true)
  }

  private func storeSessionKey(
    _ key: String, room: String, sessionID: String, sender: String, senderKey: String, origin: String,
    claimed: String?, forwarded: Bool
  ) async throws -> MatrixMegolmSessionID? {
    let id = MatrixMegolmSessionID(room: room, senderKey: origin, sessionID: sessionID)
    let session =
      forwarded
      ? try MegolmInboundSession.importing(exportedKey: key) : try MegolmInboundSession.create(sessionKey: key)
    guard session.id == sessionID else { throw MatrixEncryptionError("a room key whose session id does not match") }
    if forwarded, !(await acceptsForwardedKey(from: sender, forwarderKey: senderKey, originKey: origin)) {
      logger.notice(
        "ignored a forwarded room key from a device that may not forward it",
        metadata: ["room": "\(room)", "sender": "\(sender)", "session": "\(sessionID)"])
      return nil
    }
    // A forwarded key of another user's session came from that user (`acceptsForwardedKey`): only their events use it.
    var owner = forwarded && sender == userID ? nil : sender
    var claimed = claimed
    if let existing = try await inboundSession(id) {
      // A key that reads further back replaces the one held; one that reads less never does.
      guard session.firstKnownIndex < existing.session.firstKnownIndex else { return id }
      owner = existing.owner ?? owner
      claimed = existing.signingKey ?? claimed
      logger.info(
        "replaced a room key with one that reads further back",
        metadata: ["room": "\(room)", "session": "\(sessionID)", "from": "\(session.firstKnownIndex)"])
    }
    inbound.set(InboundSession(session: session, owner: owner, signingKey: claimed), for: id)
    try await store.write(
      MatrixCryptoStore.InboundRecord(
        pickle: try session.pickle(key: pickleKey), senderSigningKey: claimed, senderUser: owner),
      MatrixCryptoStore.Key.inbound(room: room, senderKey: origin, sessionID: sessionID))
    logger.debug("received a room key", metadata: ["room": "\(room)", "session": "\(sessionID)"])
    return id
  }

  /// A forwarded key is taken only from a device the trust policy accepts, and only when that device is one of the
  /// bot's own or belongs to the user whose device made the session (re-sharing their own key). Anyone else could
  /// forward a key of their own making under another's name, and the first one stored would win.
  private func acceptsForwardedKey(from sender: String, forwarderKey: String, originKey: String) async -> Bool {
    guard let forwarder = try? await device(of: sender, where: { $0.curve25519 == forwarderKey }), trusts(forwarder)
    else { return false }
    if sender == userID { return true }
    return (try? await device(of: sender, where: { $0.curve25519 == originKey })) != nil
  }

  private func inboundSession(_ id: MatrixMegolmSessionID) async throws -> InboundSession? {
    if let known = inbound.value(for: id) { return known }
    guard
      let record = try await store.read(
        MatrixCryptoStore.InboundRecord.self,
        MatrixCryptoStore.Key.inbound(room: id.room, senderKey: id.senderKey, sessionID: id.sessionID))
    else { return nil }
    let known = InboundSession(
      session: try MegolmInboundSession.unpickle(record.pickle, key: pickleKey), owner: record.senderUser,
      signingKey: record.senderSigningKey)
    inbound.set(known, for: id)
    return known
  }

  package func decrypt(_ event: MatrixEvent, room: String) async -> MatrixDecryption {
    await exclusively { await decryptExclusively(event, room: room) }
  }

  private func decryptExclusively(_ event: MatrixEvent, room: String) async -> MatrixDecryption {
    guard let encrypted = event.content.decoded(as: MatrixEncrypted.self),
      encrypted.algorithm == MatrixAlgorithm.megolm,
      let senderKey = encrypted.senderKey, let sessionID = encrypted.sessionID,
      let ciphertext = encrypted.megolmCiphertext
    else { return .failed("not a Megolm event the bot can read") }
    let id = MatrixMegolmSessionID(room: room, senderKey: senderKey, sessionID: sessionID)
    do {
      guard let known = try await inboundSession(id) else { return .missingSession(id) }
      let (session, owner) = (known.session, known.owner)
      // The homeserver names the sender; the session must have come from that user's device.
      if let owner, owner != event.sender { return .failed("the session belongs to \(owner), not the sender") }
      let (plaintext, index) = try session.decrypt(ciphertext)
      if usedIndexes.isReplay(session: sessionID, index: index, eventID: event.eventID) {
        return .failed("a replayed message (index \(index) was used by another event)")
      }
      guard let payload = CanonicalJSON.parse(plaintext)?.decoded(as: MatrixMegolmPayload.self),
        payload.roomID == room, let type = payload.type
      else { return .failed("the decrypted event belongs to another room or has no type") }
      let inner = MatrixEvent(
        type: type, sender: event.sender, eventID: event.eventID, content: payload.content ?? [:],
        originServerTS: event.originServerTS)
      return try await judgeSender(inner, session: id, known: known)
    } catch {
      return .failed("\(error)")
    }
  }

  /// Applies the trust policy to a readable event: the session must come over Olm from the sender's own device (not
  /// forwarded), and that device must be one the policy trusts (cross-signed by its owner, by default).
  private func judgeSender(_ event: MatrixEvent, session id: MatrixMegolmSessionID, known: InboundSession)
    async throws -> MatrixDecryption
  {
    if identityOptions.trust == .any { return .decrypted(event) }
    guard let sender = event.sender, known.owner == sender,
      let device = try await device(of: sender, where: { $0.curve25519 == id.senderKey })
    else { return .untrustedDevice(event, deviceID: nil) }
    if let claimed = known.signingKey, claimed != device.ed25519 {
      return .untrustedDevice(event, deviceID: device.deviceID)
    }
    return trusts(device) ? .decrypted(event) : .untrustedDevice(event, deviceID: device.deviceID)
  }

  package func encrypt(_ content: JSONValue, type: String, room: String, transactionID: String) async throws
    -> JSONValue
  {
    try await exclusively {
      try await encryptExclusively(content, type: type, room: room, transactionID: transactionID)
    }
  }

  private func encryptExclusively(_ content: JSONValue, type: String, room: String, transactionID: String)
    async throws -> JSONValue
  {
    if let sent = try await store.sentContent(transactionID: transactionID) { return sent }
    var (session, record) = try await outboundSession(room: room)
    try await shareKey(room: room, session: &session, record: &record)
    let payload = MatrixMegolmPayload(type: type, content: content, roomID: room)
    let encrypted = try JSONValue.encoding(
      MatrixEncrypted(
        algorithm: MatrixAlgorithm.megolm, senderKey: identity.curve25519,
        ciphertext: .megolm(try session.encrypt(CanonicalJSON.string(payload))), sessionID: record.sessionID,
        deviceID: deviceID))
    record.messageCount += 1
    record.pickle = try session.pickle(key: pickleKey)
    // The advanced session and the event it made are saved together before the send: a resend reuses the event,
    // and no index is ever used for two different events.
    try await store.saveEncryption(room: room, outbound: record, transactionID: transactionID, content: encrypted)
    outbound[room] = (session, record)
    return encrypted
  }

  /// The room's current session, or a new one when there is none or its rotation period ran out.
  private func outboundSession(room: String) async throws
    -> (MegolmOutboundSession, MatrixCryptoStore.OutboundRecord)
  {
    var current = outbound[room]
    if current == nil,
      let record = try await store.read(
        MatrixCryptoStore.OutboundRecord.self, MatrixCryptoStore.Key.outbound(room: room))
    {
      current = (try MegolmOutboundSession.unpickle(record.pickle, key: pickleKey), record)
    }
    if let made = current?.record.createdAtMilliseconds, let validFrom = sessionsValidFrom, made < validFrom {
      // Made before a restore: its next indexes may have gone out already, with other messages.
      logger.info("rotating a room's encryption session", metadata: ["room": "\(room)", "reason": "restored"])
      current = nil
    }
    if let current {
      let period = await rotationPeriod(room: room)
      let age = Self.nowMilliseconds - current.record.createdAtMilliseconds
      if age < period.milliseconds, current.record.messageCount < period.messages { return current }
      logger.info("rotating a room's encryption session", metadata: ["room": "\(room)", "reason": "period"])
    }
    let session = try MegolmOutboundSession.create()
    let record = MatrixCryptoStore.OutboundRecord(
      pickle: try session.pickle(key: pickleKey), sessionID: session.id, createdAtMilliseconds: Self.nowMilliseconds,
      messageCount: 0, sharedWith: [])
    // The bot keeps the inbound half too, so it could read its own messages (and other clients of the same user
    // expect the sender to hold it).
    let own = MatrixMegolmSessionID(room: room, senderKey: identity.curve25519, sessionID: session.id)
    let inboundSession = try MegolmInboundSession.create(sessionKey: try session.sessionKey())
    inbound.set(InboundSession(session: inboundSession, owner: userID, signingKey: identity.ed25519), for: own)
    try await store.write(
      MatrixCryptoStore.InboundRecord(
        pickle: try inboundSession.pickle(key: pickleKey), senderSigningKey: identity.ed25519, senderUser: userID),
      MatrixCryptoStore.Key.inbound(room: room, senderKey: own.senderKey, sessionID: own.sessionID))
    try await store.write(record, MatrixCryptoStore.Key.outbound(room: room))
    outbound[room] = (session, record)
    fullyShared.remove(room)
    return (session, record)
  }

  /// Sends the session key (Olm-encrypted `m.room_key`) to every joined device that does not have it. A device that
  /// had it and is gone (left the room, removed, no longer trusted) means the session must not be used again: a new
  /// one is made and handed back in `session` and `record`, so the caller encrypts with the session it announces.
  private func shareKey(
    room: String, session: inout MegolmOutboundSession, record: inout MatrixCryptoStore.OutboundRecord
  ) async throws {
    let members = try await roomMembers(room)
    // Only devices the policy trusts get the key (Element's rule: none for devices their owner did not verify).
    let everyDevice = try await devices(of: members)
    let devices = everyDevice.mapValues { $0.filter { trusts($0.value) } }
    let leftOut = everyDevice.values.map(\.count).reduce(0, +) - devices.values.map(\.count).reduce(0, +)
    let current = Set(devices.flatMap { user, list in list.keys.map { "\(user)|\($0)" } })
    if !record.sharedWith.isSubset(of: current) {
      await discardOutbound(room: room, reason: "a device left")
      var (fresh, freshRecord) = try await outboundSession(room: room)
      try await shareKey(room: room, session: &fresh, record: &freshRecord)
      (session, record) = (fresh, freshRecord)
      outbound[room] = (fresh, freshRecord)
      return
    }
    let targets = devices.flatMap { user, list in
      list.values.filter { !record.sharedWith.contains("\(user)|\($0.deviceID)") }.map { (user: user, device: $0) }
    }
    guard !targets.isEmpty else {
      fullyShared.insert(room)
      return
    }
    // The key as it stands now: the devices that get it read from this index on, never what came before.
    let firstIndex = session.messageIndex
    // MSC4268 (spec v1.19): in a room whose history is shared with members, they may hand this key to someone
    // invited later, so the newcomer reads what was said before; elsewhere they must not. The flag goes under the
    // spec's name and the proposal's: matrix-rust-sdk (Element Web and Element X) reads the proposal's name (and its
    // own `m.shared_history`), not the spec's.
    let sharesHistory = await sharesHistory(room)
    let roomKey = MatrixRoomKey(
      roomID: room, sessionID: record.sessionID, sessionKey: try session.sessionKey(), sharedHistory: sharesHistory)
    let (messages, reached) = try await olmEncrypt(roomKey, for: targets)
    if !messages.isEmpty {
      try await api.sendToDevice(
        type: MatrixEventType.roomEncrypted, transactionID: "awfulbot-key-\(UUID().uuidString)", messages: messages)
    }
    record.sharedWith.formUnion(reached)
    try await store.write(record, MatrixCryptoStore.Key.outbound(room: room))
    try await rememberSharing(room: room, sessionID: record.sessionID, devices: Set(reached), from: firstIndex)
    if reached.count == targets.count { fullyShared.insert(room) } else { fullyShared.remove(room) }
    logger.info(
      "shared a room key",
      metadata: [
        "room": "\(room)", "devices": "\(reached.count)", "of": "\(targets.count)", "unverifiedLeftOut": "\(leftOut)",
      ])
  }

  /// Notes on the bot's own inbound copy of a session which devices (`user|device`) its key went to and from which
  /// index, so a key request from one of them can be answered from that index (and one from any other device
  /// refused).
  private func rememberSharing(room: String, sessionID: String, devices: Set<String>, from index: UInt32) async throws {
    let key = MatrixCryptoStore.Key.inbound(room: room, senderKey: identity.curve25519, sessionID: sessionID)
    guard var record = try await store.read(MatrixCryptoStore.InboundRecord.self, key), !devices.isEmpty else { return }
    var indexes = record.sharedFromIndex ?? [:]
    for device in devices { indexes[device] = min(indexes[device] ?? index, index) }
    record.sharedFromIndex = indexes
    record.sharedWithUsers = (record.sharedWithUsers ?? []).union(devices.map { String($0.prefix { $0 != "|" }) })
    try await store.write(record, key)
  }

  /// Whether the room's history is shared with members: `shared` or `world_readable`. One that cannot be read counts
  /// as not shared (a key marked shared can be passed on; one marked not shared cannot, which is the safe side).
  private func sharesHistory(_ room: String) async -> Bool {
    if let known = historyShared[room] { return known }
    let visibility = await api.historyVisibility(room: room)
    let shared = visibility == "shared" || visibility == "world_readable"
    if visibility != nil { historyShared[room] = shared }
    return shared
  }

  /// The room's rotation periods (spec defaults: a week, 100 messages), read once per room.
  private func rotationPeriod(room: String) async -> (milliseconds: Int64, messages: Int) {
    if let known = rotation[room] { return known }
    let settings = await api.encryptionSettings(room: room)
    let period = (
      milliseconds: Int64(settings?.rotationPeriodMs ?? 604_800_000),
      messages: settings?.rotationPeriodMsgs ?? 100
    )
    rotation[room] = period
    return period
  }

  private func roomMembers(_ room: String) async throws -> [String] {
    if let known = members[room] { return known }
    let list = try await api.joinedMembers(room: room)
    members[room] = list
    return list
  }

  func discardOutbound(room: String, reason: String) async {
    outbound[room] = nil
    fullyShared.remove(room)
    do {
      try await store.write(MatrixCryptoStore.OutboundRecord?.none, MatrixCryptoStore.Key.outbound(room: room))
      logger.info("rotating a room's encryption session", metadata: ["room": "\(room)", "reason": "\(reason)"])
    } catch {
      logger.warning("could not drop a room's encryption session", metadata: ["error": "\(error)"])
    }
  }

  static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
