import ChatBridge
import MatrixModel
import MatrixTransport

/// What the soak reads back from the homeserver: whether the bot joined a room, and every message it sent there.
extension MatrixClient {
  /// Whether `user` is joined to the room, as a member of it sees it.
  func isJoined(_ user: String, room: String, token: String) async throws -> Bool {
    let answer: JSONValue = try await call(.v3(.get, ["rooms", room, "joined_members"], accessToken: token))
    return answer["joined"]?[user] != nil
  }

  /// The bodies of every `m.room.message` `sender` sent to the room, oldest first (the whole history, paged).
  func messageBodies(token: String, roomID: String, sender: String) async throws -> [String] {
    var bodies: [String] = []
    var from: String?
    let filter = #"{"types":["\#(MatrixRoomMessage.eventType)"],"senders":["\#(sender)"]}"#
    while true {
      var query: [(name: String, value: String)] = [("dir", "b"), ("limit", "1000"), ("filter", filter)]
      if let from { query.append(("from", from)) }
      let answer: JSONValue = try await call(
        .v3(.get, ["rooms", roomID, "messages"], query: query, accessToken: token, timeout: .seconds(120)))
      let chunk = answer["chunk"]?.arrayValue ?? []
      bodies += chunk.compactMap { $0["content"]?["body"]?.stringValue }
      guard !chunk.isEmpty, let end = answer["end"]?.stringValue else { break }
      from = end
    }
    return bodies.reversed()
  }
}
