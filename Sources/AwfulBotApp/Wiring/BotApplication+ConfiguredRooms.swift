import BotCore
import ChatBridge
import ForumModel
import ForumsClient

extension BotApplication {
  /// How long the start waits for one configured room's id (a Matrix alias lookup) before leaving the room to
  /// `ConfiguredRoomRetry`: a homeserver that does not answer must not hold up the other chat services.
  static let startResolveLimit = Duration.seconds(10)

  /// Creates the rooms and subscriptions the config names, once: existing ones are left as they are, so a
  /// subscription a user removed in chat is re-added only if it is still in the config at the next start. A room
  /// whose id cannot be found now (a Matrix alias while the homeserver is down) is logged and seeded later, while the
  /// bot runs (`ConfiguredRoomRetry`); until then it gets nothing, rather than messages sent to a name its service
  /// does not know.
  package func seedRooms() async throws {
    let unresolved = try await seed(
      ConfiguredRoom.named(in: configuration),
      waitingAtMost: Self.startResolveLimit, logFailures: true)
    pendingRooms.withLock { $0 = unresolved }
  }

  /// Seeds each of `rooms` whose id is found within `limit`; returns the others, to try again.
  func seed(_ rooms: [ConfiguredRoom], waitingAtMost limit: Duration, logFailures: Bool) async throws
    -> [ConfiguredRoom]
  {
    var unresolved: [ConfiguredRoom] = []
    for room in rooms {
      guard
        let roomID = await configuredRoomID(
          transport: room.transport, room: room.room, waitingAtMost: limit, logFailure: logFailures)
      else {
        unresolved.append(room)
        continue
      }
      let ref = RoomRef(transport: room.transport, room: roomID)
      permissions.nameRoom(ref)
      switch room.purpose {
      case .privateMessages: engine.privateMessageRooms.add(ref)
      case .room(let settings): try await seed(settings, as: ref)
      case .transportRoom: break
      }
      if !logFailures {
        logger.info("config room seeded late", metadata: ["transport": "\(room.transport)", "room": "\(room.room)"])
      }
    }
    return unresolved
  }

  /// The room's subscriptions, unless it has them already, and the settings the entry gives.
  private func seed(_ settings: AppConfiguration.RoomSettings, as ref: RoomRef) async throws {
    for spec in settings.subscriptions ?? [] {
      let target = spec.target
      let existing = try await engine.subscriptions.subscriptions(room: ref)
      if existing.contains(where: { $0.target == target }) { continue }
      do {
        _ = try await engine.subscriptions.subscribe(
          room: ref, to: target, filters: .none, backfill: 0, createdBy: Subscription.createdByConfiguration)
      } catch {
        logger.warning(
          "config subscription not created",
          metadata: ["room": "\(settings.room)", "subscription": "\(spec)", "error": "\(error)"])
      }
    }
    if let mode = settings.mode {
      _ = try await engine.roomSettings.update(room: ref) { $0.mode = mode }
    }
    if let replyRole = settings.replyRole {
      try await engine.roomSettings.update(room: ref) { $0.replies = replyRole }
    }
    if let reactions = settings.reactions {
      try await engine.roomSettings.update(room: ref) { $0.reactions = reactions }
    }
    if let editNotices = settings.editNotices {
      try await engine.roomSettings.update(room: ref) { $0.editNotices = editNotices }
    }
    if let pictures = settings.pictures {
      try await engine.roomSettings.update(room: ref) { $0.pictures = pictures }
    }
  }

  /// The id the engine keys a configured room by. The config may name a Matrix room by its alias (`#goons:server`),
  /// but messages, membership changes and sends name it by id (`!abc`), so the alias is resolved first; nil when
  /// that fails or takes longer than `limit`.
  func configuredRoomID(transport name: String, room reference: String, waitingAtMost limit: Duration, logFailure: Bool)
    async -> String?
  {
    guard let transport = transports.first(where: { $0.name == name }) else { return reference }
    do {
      let roomID = try await withDeadline(limit) { try await transport.resolveRoom(reference) }
      if roomID != reference {
        logger.info("config room alias resolved", metadata: ["room": "\(reference)", "roomID": "\(roomID)"])
      }
      return roomID
    } catch {
      let cause = error is DeadlineExceeded ? "no answer within \(limit)" : "\(error)"
      var logger = logger
      logger[metadataKey: "transport"] = "\(name)"
      logger[metadataKey: "room"] = "\(reference)"
      logger[metadataKey: "error"] = "\(cause)"
      if logFailure {
        logger.warning("config room not seeded yet: its alias could not be resolved; trying again while running")
      } else {
        logger.debug("config room alias still not resolved")
      }
      return nil
    }
  }
}
