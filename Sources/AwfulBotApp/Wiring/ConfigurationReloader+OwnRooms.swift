import BotCore
import ChatBridge
import Foundation

extension ConfigurationReloader {
  /// After the transports took their new settings: a room a transport left because its own settings no longer name
  /// it (an IRC channel taken off `channels`) is paused when subscriptions remain there, so its posts are held
  /// instead of queued for a channel the bot parted, where each would end as a dead letter. Users' subscriptions
  /// stay; putting the channel back resumes the room, and what was held arrives as one digest.
  func followOwnRooms(
    of names: [String], from previous: AppConfiguration, to next: AppConfiguration
  ) async {
    for name in names {
      guard let before = previous.transports.first(where: { $0.resolvedName == name }),
        let after = next.transports.first(where: { $0.resolvedName == name }),
        let wasIn = before.ownRooms, let isIn = after.ownRooms
      else { continue }
      // Each list resolved once (an alias lookup may ask the service).
      let roomsBefore = await roomRefs(transport: name, rooms: wasIn)
      let roomsAfter = await roomRefs(transport: name, rooms: isIn)
      let (left, back) = (roomsBefore.subtracting(roomsAfter), roomsAfter.subtracting(roomsBefore))
      for room in left.sorted(by: { $0.room < $1.room }) { await pauseLeftRoom(room) }
      for room in back.sorted(by: { $0.room < $1.room }) { await resumeRoomBack(room) }
    }
  }

  private func roomRefs(transport: String, rooms: [String]) async -> Set<RoomRef> {
    var refs: Set<RoomRef> = []
    for room in rooms {
      if let ref = await roomRef(transport: transport, room: room) { refs.insert(ref) }
    }
    return refs
  }

  private func pauseLeftRoom(_ room: RoomRef) async {
    let engine = application.engine
    do {
      let subscriptions = try await engine.subscriptions.subscriptions(room: room)
      guard !subscriptions.isEmpty else { return }
      let wasPaused = try await engine.roomSettings.update(room: room) { $0.isPaused = true }.before.isPaused
      if !wasPaused {
        try await application.database.write { tx in
          try tx.markPausedByConfig(transport: room.transport, room: room.room, at: Date())
        }
      }
      logger.warning(
        "room paused: the config no longer names it; its subscriptions stay until it is back",
        metadata: [
          "transport": "\(room.transport)", "room": "\(room.room)", "subscriptions": "\(subscriptions.count)",
          "wasPaused": "\(wasPaused)",
        ])
    } catch {
      logger.error(
        "room the config no longer names not paused",
        metadata: ["transport": "\(room.transport)", "room": "\(room.room)", "error": "\(error)"])
    }
  }

  private func resumeRoomBack(_ room: RoomRef) async {
    do {
      // Only a room the config paused is resumed (one paused by hand, or after a kick, stays paused).
      let pausedByConfig = try await application.database.write { tx in
        try tx.clearPausedByConfig(transport: room.transport, room: room.room)
      }
      guard pausedByConfig else { return }
      _ = try await application.engine.roomSettings.update(room: room) { $0.isPaused = false }
      logger.notice(
        "room resumed: the config names it again", metadata: ["transport": "\(room.transport)", "room": "\(room.room)"])
    } catch {
      logger.error(
        "room the config names again not resumed",
        metadata: ["transport": "\(room.transport)", "room": "\(room.room)", "error": "\(error)"])
    }
  }

}
