import AsyncHTTPClient
import ChatBridge
import ForumModel
import Foundation
import Logging
import MatrixCrypto
import MatrixModel
import ServiceLifecycle
import Synchronization

/// A `ChatTransport` speaking the Matrix client-server API (v3).
///
/// `run()` checks the homeserver (`/versions`), signs in (`whoami`, or a password login whose token is kept in the
/// state store), joins the configured rooms, then long-polls `/sync`: invites are answered per config, power levels
/// and membership are kept current, and text messages from others and the bot's own membership changes arrive on
/// `events`. The sync position is
/// stored after each answer, so a restart resumes where it stopped; the first sync ever skips history.
///
/// Replies arrive with the event they answer (`IncomingMessage.replyTo`), reactions as `ChatEvent.reaction`; `react`
/// sends one.
///
/// `send` posts `m.notice` events with the outbox idempotency key as the transaction id, so a resend after a crash
/// returns the event the homeserver already has. Rate limits are waited out inside `send` (in order, without using
/// the dispatcher's attempts); 5xx and network errors are retried a few times, then handed back as retryable.
package final class MatrixTransport: ChatTransport, Sendable {
  package let name: String
  package let capabilities: ChatCapabilities
  /// Messages and reactions from others, and the bot's own joins, leaves, kicks and bans (the engine pauses a room
  /// on kick or ban).
  package let events: AsyncStream<ChatEvent>
  package let configuration: MatrixTransportConfiguration

  let client: MatrixClient
  let session: MatrixSession
  let store: any TransportStateStore
  let policy: MatrixRetryPolicy
  let logger: Logger
  /// Bounded (`ChatEventQueue`): a flood drops and counts events instead of growing without end.
  let eventSink: MatrixEventSink
  /// Configured aliases held to the room each first named (`MatrixAliasPins`).
  let aliasPins: MatrixAliasPins
  let renderer = MatrixRenderer()
  let state = Mutex(State())
  /// Relays' pictures waiting to follow them (drained by `run`), and addresses that failed within the hour.
  let pictureFollowUps = MatrixPictureFollowUps()
  let pendingPictures: MatrixPendingPictures
  let pictureFailures = PictureFailureMemory()
  /// The forum's own attachments, fetched with the bot's forum session; nil leaves them links.
  let forumAttachments: (any ForumAttachmentSource)?

  /// - Parameters:
  ///   - stateStore: where the token, device id and sync position survive restarts (one namespace per transport).
  ///   - httpClient: the shared client by default; tests may pass their own.
  ///   - forumAttachments: where the forum's own attachments come from (the forum client, in the app).
  package init(
    configuration: MatrixTransportConfiguration, stateStore: any TransportStateStore,
    httpClient: HTTPClient = .shared, retryPolicy: MatrixRetryPolicy = MatrixRetryPolicy(),
    logger: Logger = Logger(label: "awfulbot.matrix"), forumAttachments: (any ForumAttachmentSource)? = nil
  ) {
    self.forumAttachments = forumAttachments
    var logger = logger
    logger[metadataKey: "transport"] = "\(configuration.name)"
    self.name = configuration.name
    self.configuration = configuration
    self.capabilities = ChatCapabilities(
      edits: true, threads: !configuration.threadRooms.isEmpty, replies: true, reactions: true, removals: true,
      pictures: true)
    self.client = MatrixClient(homeserver: configuration.homeserver, httpClient: httpClient, logger: logger)
    self.session = MatrixSession(client: client, configuration: configuration, store: stateStore, logger: logger)
    self.store = stateStore
    self.pendingPictures = MatrixPendingPictures(store: stateStore, logger: logger)
    self.policy = retryPolicy
    self.logger = logger
    self.aliasPins = MatrixAliasPins(store: stateStore, logger: logger)
    let queue = ChatEventQueue()
    events = queue.events
    eventSink = MatrixEventSink(queue: queue, logger: logger)
  }

  package var status: MatrixTransportStatus { state.withLock { $0.status } }

  /// How often a send waited out a 429 since start (for `status` and tests).
  package var rateLimitWaits: Int { state.withLock { $0.sending.rateLimitWaits } }

  /// Rooms the bot is joined to, as of the last sync.
  package var joinedRooms: Set<String> { state.withLock { $0.rooms.directory.joined } }

  /// The sender's role in a room from its power levels, as commands from there would get it.
  package func role(of userID: String, in room: String) -> Role? {
    state.withLock { configuration.roleMapping.role(of: userID, in: $0.rooms.directory.effectivePowerLevels(in: room)) }
  }

  /// The room id an alias (`#name:server`) stands for; a room id is returned as it is. Works before `run()` has
  /// signed in (the lookup needs no token), so the app can key configured rooms by id, as messages and membership
  /// changes name them. An alias stands for the room it first named (`MatrixAliasPins`): a later answer naming
  /// another room is refused and logged, and the pinned room is returned; throws `MatrixAliasRefusal` for an alias
  /// that names no room the bot takes.
  package func resolveRoom(_ roomIDOrAlias: String) async throws -> String {
    guard roomIDOrAlias.hasPrefix("#") else { return roomIDOrAlias }
    let token = await session.currentToken ?? configuration.accessToken
    let (client, configuration) = (client, configuration)
    return try await aliasPins.resolve(roomIDOrAlias, names: { configuration.namesInviter($0) }) { pinned in
      // With a pin the answer is only compared, so a homeserver that is down must not hold the start up for long.
      try await client.resolveAlias(token: token, alias: roomIDOrAlias, timeout: pinned ? .seconds(5) : .seconds(30))
    }
  }

  /// Records the status and tells the engine when the connection's state changed (once per change).
  func setStatus(_ status: MatrixTransportStatus) {
    let changed = state.withLock { state in
      defer { state.status = status }
      return state.status.connectionState != status.connectionState
    }
    if changed { eventSink.yield(.connection(status.connectionState)) }
  }

  /// Starts, then syncs until the service group shuts down. A homeserver that cannot be reached (or answers 5xx)
  /// is retried with backoff for as long as it takes, the status saying `reconnecting (…)`, so a homeserver that is
  /// down does not take the bot (and its other chat services) with it. A start that can never succeed (rejected
  /// token, failed login, wrong account, invalid configuration) throws a `MatrixTransportError` saying what to fix.
  /// A token rejected later, without a password to log in again, stops syncing with the reason in `status`; the
  /// service then stays idle (other transports keep running) until shutdown. Graceful shutdown ends every wait.
  package func run() async throws {
    // Pictures follow their relays beside the sync loop; at shutdown those still waiting stay links.
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await self.runPictureFollowUps() }
      defer {
        pictureFollowUps.finish()
        group.cancelAll()
      }
      try await runSyncing()
    }
  }

  private func runSyncing() async throws {
    defer { eventSink.finish() }
    var interpreter: MatrixSyncInterpreter?
    var attempt = 0
    while interpreter == nil {
      do {
        interpreter = try await cancelWhenGracefulShutdown { try await self.start() }
      } catch is CancellationError {
        return
      } catch let error as MatrixTransportError where error.mayPass {
        attempt += 1
        setStatus(.reconnecting(reason: error.description))
        let delay = policy.backoff(attempt: min(attempt + policy.startupAttempts, 12))
        logger.warning(
          "matrix homeserver unreachable, will keep trying",
          metadata: ["error": "\(error)", "attempt": "\(attempt)", "delayMs": "\(delay.wholeMilliseconds)"])
        do {
          try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
        } catch {
          return
        }
      } catch {
        setStatus(.stopped(reason: "\(error)"))
        logger.error("matrix transport could not start", metadata: ["error": "\(error)"])
        throw error
      }
    }
    guard let interpreter else { return }
    do {
      try await cancelWhenGracefulShutdown {
        try await self.syncLoop(interpreter: interpreter)
        if case .stopped = self.status {
          // Stopped for good (see above): idle until shutdown instead of ending the whole service group.
          try await gracefulShutdown()
        }
      }
    } catch is CancellationError {
      // Shutdown interrupted a long-poll or a backoff: a normal end.
    }
    logger.info("matrix transport stopped syncing")
  }

  /// `/versions`, sign-in, configured rooms. Returns the sync interpreter for the signed-in user.
  func start() async throws -> MatrixSyncInterpreter {
    let problems = configuration.validationErrors()
    if !problems.isEmpty { throw MatrixTransportError.invalidConfiguration(problems) }
    let homeserver = configuration.homeserver.absoluteString
    try await withStartupRetries {
      do {
        let versions = try await self.client.versions(timeout: self.policy.startupRequestTimeout)
        guard !versions.versions.isEmpty else {
          throw MatrixTransportError.notAMatrixHomeserver(homeserver: homeserver, reason: "no versions listed")
        }
      } catch MatrixClientError.api(let error) where !error.isServerError && !error.isRateLimited {
        throw MatrixTransportError.notAMatrixHomeserver(homeserver: homeserver, reason: error.description)
      } catch MatrixClientError.invalidResponse(let reason) {
        throw MatrixTransportError.notAMatrixHomeserver(homeserver: homeserver, reason: reason)
      }
    }
    let whoami = try await withStartupRetries { try await self.session.signIn() }
    // A sign-in starts from nothing of the one before (its encryption, its start after a restore, its readiness).
    state.withLock { $0.signIn = State.SignIn(ownUserID: whoami.userID) }
    logger.info("signed in", metadata: ["user": "\(whoami.userID)", "device": "\(whoami.deviceID ?? "-")"])
    try await startOverIfRestored()
    try await startEncryption(deviceID: whoami.deviceID)
    await loadDirectRooms()
    await loadEncryptedRooms()
    await forgetLegacyNoticeRows()
    await joinConfiguredRooms()
    let threadRooms = await resolvedRooms(configuration.threadRooms)
    state.withLock { $0.rooms.threadRooms = threadRooms }
    state.withLock { $0.signIn.readyToSend = true }
    await resumePendingPictures()
    // `connected` waits for the first successful sync (see `syncLoop`): only then are rooms and power levels known.
    return MatrixSyncInterpreter(
      transportName: name, ownUserID: whoami.userID, roles: configuration.roleMapping)
  }

  /// Retries network-level failures and 5xx a few times, then names the homeserver as unreachable.
  private func withStartupRetries<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let attempts = max(policy.startupAttempts, 1)
    for attempt in 1...attempts {
      do {
        return try await body()
      } catch let error as MatrixClientError {
        let temporary: Bool =
          switch error {
          case .network: true
          case .api(let api): api.isServerError || api.isRateLimited
          case .invalidResponse: false
          }
        guard temporary, attempt < attempts else {
          if case .api(let api) = error, api.isUnknownToken {
            throw MatrixTransportError.tokenRejected(userID: configuration.userID, detail: api.description)
          }
          throw MatrixTransportError.homeserverUnreachable(
            homeserver: configuration.homeserver.absoluteString, reason: error.description)
        }
        let delay = error.apiError?.retryAfter ?? policy.backoff(attempt: attempt)
        // Said at once, not after the last start-up attempt: with the defaults those take a minute or more (each
        // refused connection is retried until the request times out), too long for `status` and `/readyz` to say
        // "connecting" about a homeserver that is down. It stays so until a sync succeeds.
        setStatus(
          .reconnecting(
            reason: MatrixTransportError.homeserverUnreachable(
              homeserver: configuration.homeserver.absoluteString, reason: error.description
            ).description))
        logger.warning("homeserver not ready, retrying", metadata: ["error": "\(error)", "attempt": "\(attempt)"])
        try await Task.sleep(for: delay)
      }
    }
    throw MatrixTransportError.homeserverUnreachable(
      homeserver: configuration.homeserver.absoluteString, reason: "gave up")
  }

  private func joinConfiguredRooms() async {
    let added = state.withLock { $0.rooms.roomsAddedLive }
    for room in configuration.rooms + added.filter({ !configuration.rooms.contains($0) }) {
      do {
        let roomID = try await joinConfigured(room)
        logger.info("joined configured room", metadata: ["room": "\(room)", "roomID": "\(roomID)"])
      } catch {
        logger.warning("could not join a configured room", metadata: ["room": "\(room)", "error": "\(error)"])
      }
    }
  }

  /// Joins a room `rooms` names. An alias is joined by the room id it stands for (`resolveRoom`), never by the
  /// alias itself, which would join whatever room the alias names today; through the alias's server, as a join by
  /// alias would.
  func joinConfigured(_ room: String) async throws -> String {
    let roomID = try await resolveRoom(room)
    let via = room.hasPrefix("#") ? room.split(separator: ":", maxSplits: 1).dropFirst().map(String.init) : []
    return try await authorized { token in try await self.client.join(token: token, roomIDOrAlias: roomID, via: via) }
  }

  /// A database restored from a backup holds the sync position of then: read from it, the rooms' events since would
  /// come again, and commands in them (a `!confirm` of a reply) would run a second time. The first sync after a
  /// restore is a first sync: nothing before it is a command. The encryption state's own recovery follows in
  /// `startEncryption`, which removes the mark.
  private func startOverIfRestored() async throws {
    guard let restored = try await store.value(for: TransportStateMarker.restoredFromBackup) else { return }
    try await store.setValue(nil, for: MatrixStateKey.nextBatch)
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    state.withLock { $0.signIn.eventsFrom = now }
    logger.notice(
      "database restored from a backup: rooms are read from now on, nothing said before this start runs as a command",
      metadata: ["restoredAt": "\(restored)"])
    if !configuration.encrypts { try await store.setValue(nil, for: TransportStateMarker.restoredFromBackup) }
  }

  /// The room ids of configured rooms (aliases resolved; one that cannot be is logged and left out).
  private func resolvedRooms(_ rooms: [String]) async -> Set<String> {
    var resolved: Set<String> = []
    for room in rooms {
      if room.hasPrefix("!") {
        resolved.insert(room)
        continue
      }
      do {
        resolved.insert(try await resolveRoom(room))
      } catch {
        logger.warning("could not resolve a configured room alias", metadata: ["room": "\(room)", "error": "\(error)"])
      }
    }
    return resolved
  }

  private func loadDirectRooms() async {
    let stored = (try? await store.value(for: MatrixStateKey.directRooms)) ?? nil
    let rooms = Set((stored ?? "").split(separator: "\n").map(String.init))
    state.withLock { $0.rooms.directory.direct = rooms }
  }

  func saveDirectRooms() async {
    let rooms = state.withLock { $0.rooms.directory.direct }.sorted().joined(separator: "\n")
    do {
      try await store.setValue(rooms.isEmpty ? nil : rooms, for: MatrixStateKey.directRooms)
    } catch {
      logger.warning("could not store direct rooms", metadata: ["error": "\(error)"])
    }
  }

  /// Runs a call with the current token; on `M_UNKNOWN_TOKEN` logs in again once (password configured) and repeats;
  /// waits out 429s. Other failures are thrown.
  func authorized<T: Sendable>(_ call: @escaping @Sendable (String) async throws -> T) async throws -> T {
    var renewed = false
    var rateLimited = 0
    while true {
      guard let token = await session.currentToken else {
        throw MatrixClientError.api(MatrixAPIError(status: 401, errcode: "M_UNKNOWN_TOKEN", message: "not signed in"))
      }
      do {
        return try await call(token)
      } catch MatrixClientError.api(let error) where error.isUnknownToken && !renewed {
        renewed = true
        _ = try await session.renew(rejected: token)
      } catch MatrixClientError.api(let error) where error.isRateLimited && rateLimited < 5 {
        rateLimited += 1
        try await Task.sleep(for: error.retryAfter ?? policy.defaultRateLimitWait)
      }
    }
  }
}

extension MatrixTransport {
  /// Without end-to-end encryption (no pickle key) commands in encrypted rooms never reach the bot.
  package func unreadableRooms() async -> [String] { isEncryptionEnabled ? [] : encryptedRooms.sorted() }

  package func encryptionStatus() async -> EncryptionStatus? {
    EncryptionStatus(
      unreadableRooms: await unreadableRooms(), roomKeysShared: await encryptedRoomKeysShared(),
      identity: await encryptionIdentity())
  }
}
