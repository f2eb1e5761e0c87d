import BotCore
import ChatBridge
import MatrixModel
import MatrixTransport

/// The human side of the benchmark: the room owner, reading the rooms through `/sync` like a chat client would.
struct MatrixBenchOwner: Sendable {
  let account: SynapseAccount
  let client: MatrixClient

  /// Only message events of one room, nothing else a sync could carry.
  private static func messageFilter(room: String) -> JSONValue {
    [
      "room": ["rooms": [.string(room)], "timeline": ["types": [.string(MatrixRoomMessage.eventType)]]],
      "presence": ["types": []], "account_data": ["types": []],
    ]
  }

  func createRoom(name: String, inviting userID: String, encrypted: Bool = false) async throws -> String {
    try await client.createRoom(token: account.accessToken, name: name, invite: [userID], encrypted: encrypted)
  }

  /// A `/sync` position from now on (the history before it is not wanted).
  func syncPosition() async throws -> String {
    let filter: JSONValue = ["room": ["timeline": ["limit": 1]], "presence": ["types": []]]
    return try await client.sync(token: account.accessToken, since: nil, filter: filter, timeout: .zero).nextBatch
  }

  /// Long-polls `/sync` from `since` until a message whose body contains `text` arrives in `room`. Returns the new
  /// position and the moment the sync answer holding it came back.
  func waitForMessage(containing text: String, in room: String, since: String, timeout: Duration = .seconds(60))
    async throws -> (since: String, seenAt: ContinuousClock.Instant)
  {
    var since = since
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let answer = try await client.sync(
        token: account.accessToken, since: since, filter: Self.messageFilter(room: room), timeout: .seconds(10))
      let seenAt = ContinuousClock.now
      since = answer.nextBatch
      let events = answer.rooms?.join?[room]?.timeline?.events ?? []
      if events.contains(where: { $0.content["body"]?.stringValue?.contains(text) == true }) {
        return (since, seenAt)
      }
    }
    throw MatrixBenchmarkError.failed("no message containing “\(text)” reached \(room) within \(timeout)")
  }
}
