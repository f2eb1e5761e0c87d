/// What the status commands (`status`, `why`) need: what the engine can tell about a room and a post.
package protocol StatusEngine: Sendable {
  func status(room: RoomRef) async throws -> RoomStatus
  func why(postID: String, room: RoomRef) async throws -> WhyAnswer
}

extension StatusReporter: StatusEngine {}
