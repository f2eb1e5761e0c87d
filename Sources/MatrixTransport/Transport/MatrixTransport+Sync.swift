import ChatBridge
import ForumModel
import Foundation
import MatrixModel

extension MatrixTransport {
  var syncTimeout: Duration { .milliseconds(Int64(max(configuration.syncTimeoutSeconds, 0) * 1000)) }

  /// While the bot is sending, at most one `/sync` starts per this interval. Every event the bot sends wakes its own
  /// long-poll, and the homeserver builds a sync answer for it (about 5 ms of Synapse's CPU per event, a third more
  /// than the send itself), only for the bot to read its own message back and poll again; spaced out, one answer
  /// covers many sends. A command sent meanwhile waits at most this long more; an idle bot polls as before.
  static let busySyncSpacing: Duration = .seconds(2)

  /// The spacing for a bot that encrypts and is in an encrypted room. There a sync also brings members who joined,
  /// and until the bot has seen a join, the room key goes out without that member, who cannot read the relays of
  /// that time (`MatrixE2EETests` caught this at 2 s). Plain rooms lose nothing to a later sync but a command's
  /// second or two.
  static let encryptedBusySyncSpacing: Duration = .milliseconds(500)

  /// Long-polls `/sync` until cancelled or the session stops (token rejected without a password).
  ///
  /// While the bot is sending (an event went out within the spacing, see `busySpacing`), it polls instead: no wait
  /// on the homeserver (`timeout=0`), one request per spacing, and a timeline without its own events (see
  /// `MatrixSyncFilter.filter(leavingOut:)`). A held long-poll would be woken by every event the bot sends and the
  /// homeserver would build an answer each time; and an answer full of the bot's own relays costs the homeserver
  /// more than the sends do, while crowding others' messages (the commands) out of a limited timeline. Membership,
  /// power levels and encryption set by others still arrive; the one thing the lean filter can hide is the bot's
  /// account leaving a room from another session (a left room with nothing else new is left out of the answer), so
  /// after a busy spell the bot compares its rooms with `/joined_rooms` (see `roomsNotJoined`).
  func syncLoop(interpreter: MatrixSyncInterpreter) async throws {
    var since = try await store.value(for: MatrixStateKey.nextBatch)
    var failures = 0
    let filter = MatrixSyncFilter.filter()
    let busyFilter = MatrixSyncFilter.filter(leavingOut: interpreter.ownUserID)
    // Set by a busy sync, cleared once `/joined_rooms` and a full sync have been compared (see `noteOwnLeaves`).
    var afterBusySpell = false
    while !Task.isCancelled {
      guard let token = await session.currentToken else { return }
      let started = ContinuousClock.now
      let spacing = busySpacing()
      // The first sync returns at once with current state; later ones wait for news unless the bot is sending.
      let busy = since != nil && isSending(since: started - spacing)
      do {
        var missing: Set<String>?
        if !busy && afterBusySpell { missing = try await roomsNotJoined(token: token) }
        let response = try await client.sync(
          token: token, since: since, filter: busy ? busyFilter : filter,
          timeout: since == nil || busy ? .zero : syncTimeout)
        if failures > 0 { logger.info("sync recovered", metadata: ["failures": "\(failures)"]) }
        failures = 0
        try await handle(response, interpreter: interpreter, isInitial: since == nil)
        since = response.nextBatch
        if let missing {
          // A room this answer shows joined was rejoined since `/joined_rooms` was read.
          await noteOwnLeaves(missing.subtracting((response.rooms?.join ?? [:]).keys))
          afterBusySpell = false
        }
        if busy { afterBusySpell = true }
        await reportUndecryptable()
        await reportIdentityChanges()
        if let user = state.withLock({ $0.signIn.ownUserID }) { setStatus(.connected(userID: user)) }
        let nextSpacing = busySpacing()
        if isSending(since: started - nextSpacing) {
          try await Task.sleep(until: started + nextSpacing)
        }
      } catch let error as MatrixClientError {
        failures += 1
        switch policy.decide(syncFailure: error, attempt: failures, canRenewToken: await session.canRenew) {
        case .wait(let delay):
          setStatus(.reconnecting(reason: error.description))
          logger.warning(
            "sync failed, retrying",
            metadata: ["error": "\(error)", "failures": "\(failures)", "delayMs": "\(delay.wholeMilliseconds)"])
          try await Task.sleep(for: delay)
        case .renewToken:
          do {
            _ = try await session.renew(rejected: token)
          } catch {
            await stop(reason: "\(error)")
            return
          }
        case .giveUp:
          await stop(
            reason: MatrixTransportError.tokenRejected(userID: configuration.userID, detail: error.description)
              .description)
          return
        }
      } catch let error as CancellationError {
        throw error
      } catch {
        // The state store failed: keep the old position and try again, so nothing is skipped.
        failures += 1
        logger.error("could not handle a sync answer", metadata: ["error": "\(error)"])
        try await Task.sleep(for: policy.backoff(attempt: failures))
      }
    }
  }

  /// After a busy spell (syncs without the bot's own events): the rooms the bot believes joined that the homeserver
  /// says it is not in. Such a room is only taken as left by the bot's own account once the next full sync has been
  /// applied without news of it: a kick or ban comes from someone else, so that sync reports it as such.
  private func roomsNotJoined(token: String) async throws -> Set<String> {
    let joined = Set(try await client.joinedRooms(token: token))
    return state.withLock { $0.rooms.directory.joined }.subtracting(joined)
  }

  /// Rooms from `missing` still believed joined after a full sync: the bot's account left them itself.
  private func noteOwnLeaves(_ missing: Set<String>) async {
    guard !missing.isEmpty, let own = state.withLock({ $0.signIn.ownUserID }) else { return }
    let left = state.withLock { state in
      missing.filter { state.rooms.directory.joined.contains($0) }.sorted().map { room in
        state.rooms.directory.forget(room: room)
        return MatrixMembershipChange(room: room, kind: .left, by: own, reason: nil)
      }
    }
    await report(left)
  }

  /// Tells the engine how the bot's own membership changed, and keeps the direct-chat list in step with rooms left.
  private func report(_ changes: [MatrixMembershipChange]) async {
    for change in changes {
      logger.notice(
        "membership changed",
        metadata: ["room": "\(change.room)", "kind": "\(change.kind.rawValue)", "by": "\(change.by ?? "-")"])
      eventSink.yield(
        .membership(
          MembershipChange(
            transport: name, room: change.room, kind: MembershipChange.Kind(rawValue: change.kind.rawValue) ?? .left,
            by: change.by, reason: change.reason)))
    }
    if changes.contains(where: { $0.kind != .joined }) { await saveDirectRooms() }
  }

  /// Whether an event went out after `instant` (see `busySyncSpacing`).
  private func isSending(since instant: ContinuousClock.Instant) -> Bool {
    state.withLock { $0.sending.lastSentAt.map { $0 > instant } ?? false }
  }

  /// `encryptedBusySyncSpacing` while the bot encrypts and is in an encrypted room, else `busySyncSpacing`. Not
  /// only while it sends into one: the first relay into an encrypted room after a spell of plain sends would then
  /// go out with the membership of up to 2 s before.
  func busySpacing() -> Duration {
    let inEncryptedRoom = state.withLock { state in
      state.signIn.crypto != nil && !state.rooms.directory.encrypted.isDisjoint(with: state.rooms.directory.joined)
    }
    return inEncryptedRoom ? Self.encryptedBusySyncSpacing : Self.busySyncSpacing
  }

  func stop(reason: String) async {
    setStatus(.stopped(reason: reason))
    logger.error("matrix transport stopped", metadata: ["reason": "\(reason)"])
    await session.stop(reason: reason)
  }

  /// Applies one sync answer: invites, state, encryption notices, then the new position, then messages and
  /// reactions. The position is stored before they are handed on, so a crash can lose a command but never runs one
  /// twice.
  func handle(_ received: MatrixSyncResponse, interpreter: MatrixSyncInterpreter, isInitial: Bool) async throws {
    let visible = withoutEventsBeforeRestore(received)
    // Encrypted events become the events inside where the keys are known (see `decrypt`); room keys from this
    // answer are applied first, so a key and its message arriving together work.
    let (response, readable) = await decrypt(visible, isInitial: isInitial)
    let (interpreted, encryptedChanged) = state.withLock { state in
      let before = state.rooms.directory.encrypted
      let batch = interpreter.interpret(response, directory: &state.rooms.directory, isInitial: isInitial)
      return (batch, state.rooms.directory.encrypted != before)
    }
    var batch = interpreted
    for invite in batch.invites { await answer(invite) }
    if !batch.roomsWithoutPowerLevels.isEmpty {
      await fetchPowerLevels(batch.roomsWithoutPowerLevels)
      batch.events = state.withLock { state in
        let directory = state.rooms.directory
        let role = { (sender: String, room: String) in
          interpreter.roles.role(of: sender, in: directory.effectivePowerLevels(in: room))
        }
        return batch.events.map { event in
          switch event {
          case .message(var message) where message.transportRole == nil:
            message.transportRole = role(message.senderID, message.room)
            return .message(message)
          case .reaction(var reaction) where reaction.transportRole == nil:
            reaction.transportRole = role(reaction.senderID, reaction.room)
            return .reaction(reaction)
          default:
            return event
          }
        }
      }
    }
    if encryptedChanged { await saveEncryptedRooms() }
    // Before the position is stored: the encryption state of a room arrives once, and must not be lost to a crash.
    try await sendEncryptionNotices(to: batch.encryptedRooms)
    try await store.setValue(response.nextBatch, for: MatrixStateKey.nextBatch)
    await report(batch.membershipChanges)
    for event in batch.events { eventSink.yield(event) }
    let cutoff = state.withLock { $0.signIn.eventsFrom }
    for (room, event) in readable where cutoff.map({ (event.originServerTS ?? .max) >= $0 }) ?? true {
      let incoming = state.withLock { interpreter.incoming(from: event, room: room, directory: $0.rooms.directory) }
      if let incoming { eventSink.yield(incoming) }
    }
  }

  /// After a restore, messages sent before this start are left out (state events stay): the first sync is a first
  /// sync, but the homeserver may answer it from a cache of one made shortly before (Synapse keeps sync answers for a
  /// while), which would hand out everything since then again.
  func withoutEventsBeforeRestore(_ response: MatrixSyncResponse) -> MatrixSyncResponse {
    guard let cutoff = state.withLock({ $0.signIn.eventsFrom }) else { return response }
    var response = response
    for room in (response.rooms?.join ?? [:]).keys {
      response.rooms?.join?[room]?.timeline?.events?.removeAll {
        $0.stateKey == nil && ($0.originServerTS ?? .max) < cutoff
      }
    }
    return response
  }

  private func answer(_ invite: MatrixInvite) async {
    let inviter = invite.inviter ?? "unknown"
    if let user = invite.inviter, configuration.acceptsInvite(from: user) {
      do {
        _ = try await authorized { token in try await self.client.join(token: token, roomIDOrAlias: invite.room) }
        // A room entered on an invite is never taken as a configured alias's room on a stranger's word.
        await aliasPins.recordInvite(room: invite.room, inviter: inviter)
        if invite.isDirect {
          state.withLock { _ = $0.rooms.directory.direct.insert(invite.room) }
          await saveDirectRooms()
        }
        logger.info("accepted an invite", metadata: ["room": "\(invite.room)", "inviter": "\(inviter)"])
      } catch {
        logger.warning(
          "could not join after an invite", metadata: ["room": "\(invite.room)", "error": "\(error)"])
      }
    } else {
      do {
        try await authorized { token in
          try await self.client.leave(
            token: token, roomID: invite.room, reason: "This bot does not accept your invites.")
        }
        logger.info("declined an invite", metadata: ["room": "\(invite.room)", "inviter": "\(inviter)"])
      } catch {
        logger.warning("could not decline an invite", metadata: ["room": "\(invite.room)", "error": "\(error)"])
      }
    }
  }

  /// Rooms whose power levels or creators were not in the sync answer (a gap): read them from room state.
  private func fetchPowerLevels(_ rooms: [String]) async {
    for room in rooms {
      do {
        let (levels, create) = try await authorized { token in
          let levels = try await self.client.stateEvent(
            token: token, roomID: room, type: MatrixPowerLevels.eventType)
          let create = try await self.client.stateEvent(
            token: token, roomID: room, type: MatrixRoomCreate.eventType, format: "event")
          return (levels, create)
        }
        state.withLock {
          $0.rooms.directory.powerLevels[room] = MatrixPowerLevels(content: levels)
          $0.rooms.directory.creators[room] = MatrixPowerLevels.privilegedCreators(
            createEvent: create["content"] ?? [:], sender: create["sender"]?.stringValue)
        }
      } catch {
        logger.warning("could not read power levels", metadata: ["room": "\(room)", "error": "\(error)"])
      }
    }
  }
}
