/// What the private-message commands (`pms`, `pm`, `pmreply`) need from the engine: where they may be used.
package protocol PrivateMessageRoomsEngine: Sendable {
  /// Whether new private messages are told in `room` (`privateMessages.rooms`): the PM commands work only there
  /// and in direct chats.
  func contains(_ room: RoomRef) -> Bool
}

extension PrivateMessageRooms: PrivateMessageRoomsEngine {}
