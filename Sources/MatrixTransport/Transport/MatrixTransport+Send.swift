import ChatBridge
import Crypto
import ForumModel
import Foundation
import MatrixModel
import ServiceLifecycle

extension MatrixTransport {
  /// Renders `message` (see `MatrixRenderer`) and sends it as `m.notice` events (see `MatrixMessageContent`) with
  /// `idempotencyKey` as the transaction id. An answer too long for one event goes out as several, the later ones
  /// under `key#2`, `key#3`…, so a resend after a crash repeats every one of them under the same ids.
  package func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws
    -> DeliveryReceipt
  {
    var message = message
    var pictures: PicturePlan?
    // A relay goes out at once; its pictures follow it (see `picturePlan`). Only reasons known without waiting are
    // in its text now; the follow-up edits the relay for the rest.
    if case .post(var relay) = message.content, message.replaces == nil {
      let plan = picturePlan(of: relay, display: message.pictures ?? .inline, room: room)
      relay.body = Self.annotated(relay.body, notShown: plan.notShown)
      message.content = .post(relay)
      pictures = plan
    }
    let threadKey = threadKey(of: message, in: room)
    var position: MatrixThreadPosition?
    if let threadKey { position = await threadPosition(room: room, key: threadKey) }
    let prepared = takePrepared(message, idempotencyKey: idempotencyKey)
    let contents: [JSONValue]
    var bodies: [[UInt8]]?
    if let prepared, position == nil {
      contents = prepared.contents
      bodies = prepared.bodies
    } else {
      contents = self.contents(
        of: message, rendered: prepared?.events ?? renderer.render(message.content), thread: position)
    }
    var eventID = ""
    for (offset, content) in contents.enumerated() {
      let transactionID = offset == 0 ? idempotencyKey : "\(idempotencyKey)#\(offset + 1)"
      eventID = try await sendEvent(
        room: room, content: content, transactionID: transactionID, encoded: bodies?[offset])
    }
    var thread: MatrixThreadPosition?
    if let threadKey {
      let updated = MatrixThreadPosition(root: position?.root ?? eventID, latest: eventID)
      await saveThreadPosition(updated, room: room, key: threadKey)
      thread = updated
    }
    // A relay's pictures follow it (an edit of a relay does not send them again).
    if let pictures {
      await followUp(
        MatrixPictureFollowUps.Job(
          room: room, message: message, relayEventID: eventID, thread: thread, idempotencyKey: idempotencyKey,
          pictures: pictures.pictures))
    }
    return DeliveryReceipt(id: eventID)
  }

  /// Makes the room's next message ready while the dispatcher waits for the homeserver to accept the one before:
  /// renders it and, unless the room is encrypted, encodes the request bodies. At the homeserver's pace these were
  /// most of the bot's own time between two sends into a room (rendering a relay about 0.4 ms, encoding its body
  /// 0.16 ms). Kept until its send, at most a few (a room that stopped leaves its next one behind).
  package func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async {
    let events = renderer.render(message.content)
    let contents = contents(of: message, rendered: events, thread: nil)
    let encrypted = state.withLock { $0.signIn.crypto != nil && $0.rooms.directory.encrypted.contains(room) }
    let bodies = encrypted ? nil : try? contents.map(MatrixClient.encode)
    let entry = MatrixPreparedSend(message: message, events: events, contents: contents, bodies: bodies)
    state.withLock { state in
      if state.sending.prepared.count >= Self.preparedLimit { state.sending.prepared.removeAll() }
      state.sending.prepared[idempotencyKey] = entry
    }
  }

  static let preparedLimit = 32

  /// What `prepare` made for this key, if it made it from this very message.
  func takePrepared(_ message: OutgoingMessage, idempotencyKey: String) -> MatrixPreparedSend? {
    guard let entry = state.withLock({ $0.sending.prepared.removeValue(forKey: idempotencyKey) }),
      entry.message == message
    else { return nil }
    return entry
  }

  /// The event contents of `message`: one per rendered event (an edit replaces one event only), the later ones
  /// never edits, in `thread` when given.
  func contents(
    of message: OutgoingMessage, rendered events: [MatrixRenderer.Rendered], thread: MatrixThreadPosition?
  )
    -> [JSONValue]
  {
    let events = message.replaces != nil ? Array(events.prefix(1)) : events
    return events.enumerated().map { offset, rendered in
      var part = message
      if offset > 0 { part.replaces = nil }
      return MatrixMessageContent.content(
        for: part, rendered: rendered, thread: thread, suppressPreviews: configuration.suppressLinkPreviews)
    }
  }

  /// Relays of one forum thread share a Matrix thread in rooms configured for it; replies and edits never do.
  private func threadKey(of message: OutgoingMessage, in room: String) -> String? {
    guard let key = message.threadKey, message.isRelay, message.replaces == nil, message.inReplyTo == nil
    else { return nil }
    return state.withLock { $0.rooms.threadRooms.contains(room) } ? key : nil
  }

  private func threadPosition(room: String, key: String) async -> MatrixThreadPosition? {
    guard let stored = try? await store.value(for: MatrixStateKey.thread(room: room, key: key)) else { return nil }
    return try? JSONDecoder().decode(MatrixThreadPosition.self, from: Data(stored.utf8))
  }

  private func saveThreadPosition(_ position: MatrixThreadPosition, room: String, key: String) async {
    guard let data = try? JSONEncoder().encode(position) else { return }
    do {
      try await store.setValue(String(decoding: data, as: UTF8.self), for: MatrixStateKey.thread(room: room, key: key))
    } catch {
      logger.warning("could not store a thread position", metadata: ["room": "\(room)", "error": "\(error)"])
    }
  }

  /// Reacts with `key` to `messageID`: an `m.reaction` annotation. In an encrypted room it goes encrypted like every
  /// event the bot sends there, its relation (key included) also in the cleartext (see `encryptIfNeeded`), as
  /// Element X sends reactions; Element Web sends them plain, which the bot never does in an encrypted room. The
  /// transaction id comes from the room, target and key, so a retry, or the same reaction asked for twice, makes one
  /// reaction; a homeserver that already has it under another id (`M_DUPLICATE_ANNOTATION`, after a new login)
  /// counts as done. Rate limits and failures are handled as for messages (see `sendEvent`).
  package func react(to messageID: String, in room: String, with key: String) async throws {
    do {
      _ = try await sendEvent(
        room: room, type: MatrixReaction.eventType, content: MatrixReaction(to: messageID, key: key).json,
        transactionID: Self.reactionTransactionID(room: room, target: messageID, key: key))
    } catch MatrixClientError.api(let error) where error.errcode == Self.duplicateAnnotation {
      logger.debug("already reacted", metadata: ["room": "\(room)", "target": "\(messageID)"])
    }
  }

  static let duplicateAnnotation = "M_DUPLICATE_ANNOTATION"

  /// `awfulbot-react-` and a digest of room, target and key: the same for the same reaction, and only characters a
  /// transaction id (a path segment) takes as they are, whatever the key is made of.
  static func reactionTransactionID(room: String, target: String, key: String) -> String {
    "awfulbot-react-" + digest("\(room)\n\(target)\n\(key)")
  }

  /// Removes the content of `messageID` (one of the bot's relays an admin took down). Redactions are never
  /// encrypted (the homeserver must read them), so this goes out the same in every room. The transaction id comes
  /// from room and event, so a retry is one redaction; a redacted event redacted again is no failure.
  package func redact(_ messageID: String, in room: String, reason: String?) async throws {
    let transactionID = "awfulbot-redact-" + Self.digest("\(room)\n\(messageID)")
    _ = try await withSendRetries(room: room) { token in
      try await self.client.redact(
        token: token, roomID: room, eventID: messageID, transactionID: transactionID, reason: reason)
    }
  }

  private static func digest(_ text: String) -> String {
    SHA256.hash(data: Array(text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
  }

  /// The send loop: waits out 429s, retries 5xx/network a few times, logs in again on a rejected token, and maps
  /// what is left to `ChatSendError` for the dispatcher. `M_DUPLICATE_ANNOTATION` (a reaction the homeserver has)
  /// is thrown as it came, for `react` to take as done.
  ///
  /// - Parameter encoded: `content` already encoded (see `prepare`), sent as it is unless the room encrypts.
  func sendEvent(
    room: String, type: String = MatrixEventType.roomMessage, content: JSONValue, transactionID: String,
    encoded: [UInt8]? = nil, allowPlain: Bool = false
  ) async throws -> String {
    // Just after a start the dispatcher may come before the sign-in and the encryption set-up: the send waits for
    // them here, before encrypting, rather than fail as "not signed in" or find encryption not on yet.
    _ = try await tokenForSending()
    // Encryption is one step before the send loop: the same transaction id always carries the same event.
    let (type, payload, encrypted) = try await encryptIfNeeded(
      content, type: type, room: room, transactionID: transactionID, allowPlain: allowPlain)
    // A body encoded beforehand is the plain content: it stands only for an event that goes out unencrypted.
    let body = encrypted ? nil : encoded
    return try await withSendRetries(room: room) { token in
      try await self.client.sendEvent(
        token: token, roomID: room, type: type, transactionID: transactionID, content: payload, encoded: body)
    }
  }

  /// `call` (a send, a redaction) under the send rules: see `sendEvent`.
  private func withSendRetries(room: String, _ call: @Sendable (String) async throws -> String) async throws
    -> String
  {
    var attempt = 0
    var rateLimitWaited = Duration.zero
    var renewed = false
    while true {
      let token = try await tokenForSending()
      do {
        let eventID = try await call(token)
        state.withLock { $0.sending.lastSentAt = .now }
        return eventID
      } catch let error as MatrixClientError {
        if error.apiError?.errcode == Self.duplicateAnnotation { throw error }
        attempt += 1
        let canRenew = await session.canRenew && !renewed
        switch policy.decide(
          sendFailure: error, attempt: attempt, rateLimitWaited: rateLimitWaited, canRenewToken: canRenew)
        {
        case .wait(let delay):
          if error.apiError?.isRateLimited == true {
            rateLimitWaited += delay
            state.withLock { $0.sending.rateLimitWaits += 1 }
            logger.debug(
              "rate limited, waiting", metadata: ["room": "\(room)", "delayMs": "\(delay.wholeMilliseconds)"])
          } else {
            logger.info("send failed, retrying", metadata: ["room": "\(room)", "error": "\(error)"])
          }
          try await pause(delay, reason: "send interrupted by shutdown while waiting to retry: \(error)")
        case .renewToken:
          renewed = true
          do {
            _ = try await session.renew(rejected: token)
          } catch {
            await stop(reason: "\(error)")
            throw ChatSendError.retryable(reason: "\(error)", after: .seconds(300))
          }
        case .giveUp(let failure):
          if error.apiError?.isUnknownToken == true {
            await stop(
              reason: MatrixTransportError.tokenRejected(userID: configuration.userID, detail: error.description)
                .description)
          }
          if case .permanent(let reason) = failure {
            logger.warning("homeserver refused a message", metadata: ["room": "\(room)", "reason": "\(reason)"])
          }
          throw failure
        }
      }
    }
  }

  /// The token to send with. Before the first sign-in finishes, waits a little (the dispatcher may start first);
  /// a stopped transport refuses at once with its reason.
  private func tokenForSending() async throws -> String {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
      if let token = await session.currentToken, state.withLock({ $0.signIn.readyToSend }) { return token }
      if case .stopped(let reason) = status {
        throw ChatSendError.retryable(reason: "matrix transport \(name) is stopped: \(reason)", after: .seconds(300))
      }
      if ContinuousClock.now >= deadline {
        throw ChatSendError.retryable(reason: "matrix transport \(name) is not signed in yet", after: .seconds(5))
      }
      try await pause(.milliseconds(100), reason: "matrix transport \(name) is not signed in yet")
    }
  }

  /// Waits between tries of one send. Nothing is in flight then, so a graceful shutdown (SIGTERM) ends the wait at
  /// once with a retryable error: the row stays queued and goes out under the same transaction id at the next start,
  /// instead of holding up the shutdown for a sign-in or a backoff that may take minutes.
  private func pause(_ delay: Duration, reason: String) async throws {
    do {
      try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
    } catch is CancellationError {
      // The task itself cancelled is not a shutdown's wait ended: that stays a cancellation.
      if Task.isCancelled { throw CancellationError() }
      throw ChatSendError.retryable(reason: reason, after: .seconds(5))
    }
  }
}
