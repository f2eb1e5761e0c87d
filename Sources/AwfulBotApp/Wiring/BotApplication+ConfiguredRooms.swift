import BotCore
import ChatBridge

extension BotApplication {
  /// The id the engine keys a configured room by. The config may name a Matrix room by its alias (`#goons:server`),
  /// but messages, membership changes and sends name it by id (`!abc`), so the alias is resolved first; a room
  /// whose alias cannot be resolved now is skipped with a warning and seeded at the next start.
  func configuredRoomID(transport name: String, room: String) async -> String? {
    guard let transport = transports.first(where: { $0.name == name }) else { return room }
    do {
      let roomID = try await transport.resolveRoom(room)
      if roomID != room {
        logger.info("config room alias resolved", metadata: ["room": "\(room)", "roomID": "\(roomID)"])
      }
      return roomID
    } catch {
      logger.warning(
        "config room not seeded: its alias could not be resolved",
        metadata: ["transport": "\(name)", "room": "\(room)", "error": "\(error)"])
      return nil
    }
  }
}
