import ChatBridge
import Foundation
import MatrixCrypto
import MatrixModel

extension MatrixTransport {
  /// Joined rooms that are end-to-end encrypted, kept across restarts; for `status` and readiness.
  package var encryptedRooms: Set<String> { state.withLock { $0.rooms.directory.encrypted } }

  /// Whether the bot reads and writes encrypted rooms (encryption on, a pickle key, and the keys loaded).
  package var isEncryptionEnabled: Bool { state.withLock { $0.signIn.crypto != nil } }

  /// The device's ed25519 key, for verifying the bot by hand; nil without encryption.
  package func encryptionFingerprint() async -> String? {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return nil }
    return await crypto.fingerprint()
  }

  /// Encrypted rooms whose current session key went to every joined device at the last send there.
  package func roomsWithSharedKeys() async -> Set<String> {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return [] }
    return await crypto.sharedRooms()
  }

  package func encryptedRoomKeysShared() async -> [String: Bool] {
    guard isEncryptionEnabled else { return [:] }
    let shared = await roomsWithSharedKeys()
    return Dictionary(uniqueKeysWithValues: encryptedRooms.map { ($0, shared.contains($0)) })
  }

  /// The bot's cross-signing identity (master key, trust policy) once established; nil without encryption.
  package func encryptionIdentityStatus() async -> MatrixIdentityStatus? {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return nil }
    return await crypto.identityStatus()
  }

  /// `status`'s sentence about the identity: cross-signed with its master key, and whom room keys go to.
  package func encryptionIdentity() async -> String? {
    guard let identity = await encryptionIdentityStatus() else {
      return configuration.encrypts ? "encryption on, identity not set up yet" : nil
    }
    let trust =
      identity.trust == .crossSigned
      ? "room keys and commands only for devices their owner verified" : "room keys for any device"
    let changed =
      identity.changedIdentities.isEmpty
      ? ""
      : "; identity changes waiting for acceptedIdentities: \(identity.changedIdentities.joined(separator: ", "))"
    return "cross-signed identity, master key \(MatrixEncryptionSetup.grouped(identity.masterKey)); \(trust)\(changed)"
  }

  /// The recovery key of the bot's secret storage as Element shows it; nil when none is known.
  package func recoveryKey() async -> String? {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return nil }
    return await crypto.recoveryKey()
  }

  /// With encryption on: loads (or creates) the device's keys from the store, publishes them, and establishes the
  /// account's cross-signing identity. An identity that cannot be established stops the transport with the reason.
  func startEncryption(deviceID: String?) async throws {
    guard configuration.encrypts, let pickleKey = configuration.pickleKey else { return }
    let stored = try await store.value(for: MatrixStateKey.deviceID)
    guard let deviceID = deviceID ?? stored else {
      throw MatrixTransportError.invalidConfiguration([
        "matrix \(name): the homeserver does not say which device the access token belongs to; "
          + "encryption needs a device (log in with a password or set deviceID)"
      ])
    }
    let api = MatrixCryptoAPI { [weak self] method, path, body in
      guard let self else { throw CancellationError() }
      return try await self.authorized { token in
        try await self.client.call(.v3(method, path, body: body, accessToken: token), as: JSONValue.self)
      }
    }
    let crypto = LibOlmEncryption(
      userID: configuration.userID, deviceID: deviceID, pickleKey: pickleKey, store: store, api: api,
      identityOptions: configuration.identityOptions, logger: logger)
    do {
      try await crypto.start()
    } catch let error as MatrixCrossSigningError {
      throw MatrixTransportError.encryptionIdentity(error.description)
    } catch let error as MatrixClientError {
      if case .api(let api) = error, !api.isServerError, !api.isRateLimited {
        throw MatrixTransportError.encryptionIdentity(
          "the homeserver refused a step of setting up encryption (\(error.description))")
      }
      throw MatrixTransportError.homeserverUnreachable(
        homeserver: configuration.homeserver.absoluteString, reason: error.description)
    } catch let error as MatrixEncryptionError {
      throw MatrixTransportError.encryptionIdentity(error.description)
    }
    state.withLock { $0.signIn.crypto = crypto }
    let identity = await crypto.identityStatus()
    logger.info(
      "end-to-end encryption ready",
      metadata: [
        "device": "\(deviceID)", "masterKey": "\(identity?.masterKey ?? "-")",
        "trust": "\(configuration.encryption.trust.rawValue)",
      ])
  }

  /// The event type and content to send: the content itself in a plain room, `m.room.encrypted` in an encrypted
  /// one. Nothing ever goes into an encrypted room in clear text: without encryption the room got its one notice
  /// (`allowPlain`, see `sendEncryptionNotices`), and everything else for it waits, queued, until encryption is on.
  /// A failure to encrypt is retryable.
  ///
  /// An encrypted event carries its relation (`m.relates_to`: reply, edit, thread, reaction) in the cleartext as well
  /// as inside, as the spec requires and Element does: the homeserver aggregates edits and reactions and checks
  /// duplicate reactions by it, and Element reads relations from the cleartext only. Only the relation shows (a
  /// reaction's key with it); the text stays encrypted.
  func encryptIfNeeded(
    _ content: JSONValue, type: String = MatrixEventType.roomMessage, room: String, transactionID: String,
    allowPlain: Bool = false
  ) async throws -> (type: String, content: JSONValue, encrypted: Bool) {
    try await learnEncryptionIfUnknown(room: room)
    let (isEncrypted, crypto) = state.withLock { ($0.rooms.directory.encrypted.contains(room), $0.signIn.crypto) }
    guard isEncrypted else { return (type, content, false) }
    guard let crypto else {
      if allowPlain { return (type, content, false) }
      throw ChatSendError.retryable(
        reason: "\(room) is end-to-end encrypted and encryption is off for \(name); nothing is sent there in clear "
          + "text", after: .seconds(300))
    }
    do {
      var encrypted = try await crypto.encrypt(content, type: type, room: room, transactionID: transactionID)
      if let relation = content[MatrixRelation.contentKey], case .object(var object) = encrypted {
        object[MatrixRelation.contentKey] = relation
        encrypted = .object(object)
      }
      return (MatrixEncrypted.eventType, encrypted, true)
    } catch let error as CancellationError {
      throw error
    } catch {
      logger.warning("could not encrypt a message", metadata: ["room": "\(room)", "error": "\(error)"])
      throw ChatSendError.retryable(reason: "could not encrypt for \(room): \(error)", after: .seconds(10))
    }
  }

  /// A room no sync has shown yet (just after a start, or joined a moment ago) may be encrypted: its
  /// `m.room.encryption` state is read once before anything is sent there, so nothing goes out in clear text on a
  /// guess. A failed read is retryable: the send waits rather than guess.
  func learnEncryptionIfUnknown(room: String) async throws {
    let known = state.withLock {
      $0.rooms.directory.joined.contains(room) || $0.rooms.directory.encrypted.contains(room)
        || $0.rooms.encryptionLookedUp.contains(room)
    }
    guard !known else { return }
    do {
      _ = try await authorized { token in
        try await self.client.stateEvent(token: token, roomID: room, type: MatrixRoomEncryption.eventType)
      }
      state.withLock { _ = $0.rooms.directory.encrypted.insert(room) }
      await saveEncryptedRooms()
    } catch MatrixClientError.api(let error) where error.status == 404 {
      // No encryption state: a plain room (a room the bot is not in answers 403, and the send then says so).
    } catch MatrixClientError.api(let error) where error.isForbidden {
    } catch {
      throw ChatSendError.retryable(
        reason: "could not tell whether \(room) is encrypted: \(error)", after: .seconds(5))
    }
    state.withLock { _ = $0.rooms.encryptionLookedUp.insert(room) }
  }

  /// A readable message from a device the trust policy does not accept: never acted on; its sender is told what to
  /// do, in the room, encrypted (so their verified sessions read it), at most once an hour per room and user
  /// (`UnverifiedSessionNotices`, kept across restarts): a new session costs anyone nothing, so it earns no notice.
  func refuseUntrusted(_ event: MatrixEvent, deviceID: String?, room: String, now: Date = .now) async {
    guard let sender = event.sender, sender != configuration.userID else { return }
    let device = deviceID ?? "unknown"
    logger.info(
      "ignored a message from a device its owner has not verified",
      metadata: ["room": "\(room)", "sender": "\(sender)", "device": "\(device)"])
    // A changed identity was announced to the room (`reportIdentityChanges`); its sessions get no room keys, so
    // a reply to them could not be read, and "verify your session" would be the wrong advice.
    if await state.withLock({ $0.signIn.crypto })?.changedIdentity(of: sender) != nil { return }
    do {
      let stored = try await store.value(for: MatrixStateKey.unverifiedSessionNotices)
      var notices =
        stored.flatMap { try? JSONDecoder().decode(UnverifiedSessionNotices.self, from: Data($0.utf8)) }
        ?? UnverifiedSessionNotices()
      guard notices.shouldTell(user: sender, in: room, now: now) else { return }
      // Recorded before the send: a crash in it never makes the notice go twice in the hour.
      try await store.setValue(
        String(decoding: try JSONEncoder().encode(notices), as: UTF8.self),
        for: MatrixStateKey.unverifiedSessionNotices)
      let name = state.withLock { $0.rooms.directory.displayName(of: sender, in: room) }
      let session = deviceID.map { "your session \($0)" } ?? "the session you used"
      let text =
        "\(name), I do not act on messages from \(session): it is not verified. Verify it from one of your other "
        + "sessions (in Element: Settings → Sessions), or write from a verified session, then send it again."
      // A reply that mentions them: their verified sessions are notified and show which message it answers (the
      // unverified one cannot read it, as it reads nothing in the room).
      var content = MatrixMessageContent.plainContent(text: text, html: nil)
      content.mentions = MatrixMentions(userIDs: [sender])
      if let refused = event.eventID { content.relatesTo = .reply(to: refused) }
      _ = try await sendEvent(
        room: room, content: content.json,
        transactionID: "awfulbot-untrusted-\(room)-\(sender)-\(Int64(now.timeIntervalSince1970))")
    } catch {
      logger.warning(
        "could not tell a sender their device is not verified", metadata: ["room": "\(room)", "error": "\(error)"])
    }
  }

  /// Removes the notice rows older builds kept per room, user and device (`MatrixStateKey`), which nothing reads now.
  func forgetLegacyNoticeRows() async {
    do {
      try await store.removeValues(withPrefix: MatrixStateKey.legacyUntrustedDeviceNoticePrefix)
    } catch {
      logger.warning("could not remove old unverified-session notice rows", metadata: ["error": "\(error)"])
    }
  }

  /// Applies the crypto parts of a sync answer and replaces each readable `m.room.encrypted` timeline event by the
  /// event inside. Returns the answer and the waiting events that became readable (their session arrived).
  func decrypt(_ response: MatrixSyncResponse, isInitial: Bool) async -> (
    MatrixSyncResponse, [(room: String, event: MatrixEvent)]
  ) {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return (response, []) }
    let arrived = await crypto.receive(response)
    var response = response
    let encrypted = state.withLock { $0.rooms.directory.encrypted }
    for (room, joined) in response.rooms?.join ?? [:] {
      let events = joined.timeline?.events ?? []
      // Membership changes are timeline events. State holds them too after a gap (a limited timeline); otherwise
      // its member events are only the senders' profiles, lazily loaded with their messages, and no change.
      let changes =
        events.filter { $0.type == MatrixMember.eventType }
        + (joined.timeline?.limited == true
          ? (joined.state?.events ?? []).filter { $0.type == MatrixMember.eventType } : [])
      if !isInitial, !changes.isEmpty,
        encrypted.contains(room)
          || (joined.state?.events ?? []).contains(where: { $0.type == MatrixRoomEncryption.eventType })
      {
        let left = changes.contains { ["leave", "ban"].contains($0.membership) }
        await crypto.membersChanged(room: room, someoneLeft: left)
      }
      if !isInitial, encrypted.contains(room),
        (events + (joined.state?.events ?? [])).contains(where: { $0.type == MatrixHistoryVisibility.eventType })
      {
        await crypto.historyVisibilityChanged(room: room)
      }
      guard !isInitial, events.contains(where: { $0.type == MatrixEncrypted.eventType }) else { continue }
      var replaced = events
      for (index, event) in events.enumerated() where event.type == MatrixEncrypted.eventType && event.stateKey == nil {
        switch await crypto.decrypt(event, room: room) {
        case .decrypted(let inner):
          replaced[index] = Self.withCleartextRelation(inner, of: event)
        case .untrustedDevice(let inner, let deviceID):
          await refuseUntrusted(inner, deviceID: deviceID, room: room)
        case .missingSession(let session):
          state.withLock { $0.rooms.undecrypted.add(event, room: room, session: session, now: .now) }
          logger.info(
            "an encrypted message waits for its key",
            metadata: ["room": "\(room)", "sender": "\(event.sender ?? "-")", "session": "\(session.sessionID)"])
        case .failed(let reason):
          logger.warning(
            "could not decrypt a message",
            metadata: ["room": "\(room)", "sender": "\(event.sender ?? "-")", "reason": "\(reason)"])
        }
      }
      response.rooms?.join?[room]?.timeline?.events = replaced
    }
    var readable: [(room: String, event: MatrixEvent)] = []
    for item in state.withLock({ $0.rooms.undecrypted.take(arrived) }) {
      switch await crypto.decrypt(item.event, room: item.room) {
      case .decrypted(let inner): readable.append((item.room, Self.withCleartextRelation(inner, of: item.event)))
      case .untrustedDevice(let inner, let deviceID): await refuseUntrusted(inner, deviceID: deviceID, room: item.room)
      case .missingSession, .failed: break
      }
    }
    return (response, readable)
  }

  /// The decrypted event with the relation (`m.relates_to`) of the encrypted one around it. The spec has the
  /// relation in the cleartext, where the homeserver can see it, and tells clients to ignore one inside the payload,
  /// even when the cleartext has none: the bot then reads a reply, an edit or a reaction as the homeserver and Element
  /// do (Element reads relations from the cleartext only).
  static func withCleartextRelation(_ inner: MatrixEvent, of encrypted: MatrixEvent) -> MatrixEvent {
    guard case .object(var content) = inner.content else { return inner }
    // As it came (`MatrixEncrypted.relatesTo`), whatever it holds; none removes a relation the payload had.
    content[MatrixRelation.contentKey] = encrypted.content(as: MatrixEncrypted.self)?.relatesTo
    var event = inner
    event.content = .object(content)
    event.wasEncrypted = true
    return event
  }

  /// Tells each room once about messages whose key never came.
  func reportUndecryptable() async {
    let wait = Duration.milliseconds(Int64(configuration.undecryptableWaitSeconds * 1000))
    let expired = state.withLock { $0.rooms.undecrypted.expired(olderThan: wait, now: .now) }
    for item in expired {
      let sender = item.event.sender ?? "someone"
      let name = state.withLock { $0.rooms.directory.displayName(of: sender, in: item.room) }
      let text =
        "I could not read an encrypted message from \(name): its key never reached me. "
        + "If it was meant for me, please send it again."
      do {
        _ = try await sendEvent(
          room: item.room, content: MatrixMessageContent.plainContent(text: text, html: nil).json,
          transactionID: "awfulbot-undecryptable-\(item.event.eventID ?? UUID().uuidString)")
      } catch {
        logger.warning(
          "could not say a message was unreadable", metadata: ["room": "\(item.room)", "error": "\(error)"])
      }
    }
  }

  /// Posts the encryption notice in each room that has not had it yet, and remembers that it did. A failed send is
  /// logged and tried again the next time the room shows encryption (an encrypted event from someone). Not needed
  /// (and not sent) when encryption is on.
  func sendEncryptionNotices(to rooms: [String]) async throws {
    guard !isEncryptionEnabled else { return }
    for room in rooms {
      let key = MatrixStateKey.encryptionNotice(room: room)
      guard try await store.value(for: key) == nil else { continue }
      logger.warning("room is end-to-end encrypted; commands there cannot be read", metadata: ["room": "\(room)"])
      do {
        let eventID = try await sendEvent(
          room: room, content: MatrixEncryptionNotice.content,
          transactionID: MatrixEncryptionNotice.transactionID(room: room), allowPlain: true)
        try await store.setValue(eventID, for: key)
      } catch let error as ChatSendError {
        logger.warning(
          "could not post the encryption notice", metadata: ["room": "\(room)", "error": "\(error)"])
      }
    }
  }

  func loadEncryptedRooms() async {
    let stored = (try? await store.value(for: MatrixStateKey.encryptedRooms)) ?? nil
    let rooms = Set((stored ?? "").split(separator: "\n").map(String.init))
    state.withLock { $0.rooms.directory.encrypted.formUnion(rooms) }
  }

  func saveEncryptedRooms() async {
    let rooms = state.withLock { $0.rooms.directory.encrypted }.sorted().joined(separator: "\n")
    do {
      try await store.setValue(rooms.isEmpty ? nil : rooms, for: MatrixStateKey.encryptedRooms)
    } catch {
      logger.warning("could not store encrypted rooms", metadata: ["error": "\(error)"])
    }
  }
}
