import AwfulBotTestKit
import Foundation
import GRDB
import Testing

@testable import BotStore

/// Schema 7 moves the daemon's heartbeat records and each transport's own state out of the key-value table, then
/// drops it: an upgraded Matrix transport keeps its device and sync position, and `status` still reads the last
/// heartbeat.
@Suite("Operations state migration")
struct OperationsStateMigrationTests {
  @Test("heartbeat records and transport state stored by schema 6 are rows of their tables after the upgrade")
  func movesOperationsState() async throws {
    // As schema 6 wrote them: AwfulBotApp's JSON with ISO 8601 dates in namespace `ops`, and each transport's
    // values in `transport:<name>`.
    let file = try OlderSchemaFile(
      "awfulbot-ops-state", upTo: "v6-chatState",
      rows: [
        (
          "ops", "daemon",
          #"{"configuration":{"checksum":"abc","loadedAt":"2025-01-02T15:00:00Z","path":"/etc/awfulbot.json"},"#
            + #""heartbeatSeconds":15,"lastSeen":"2025-01-02T15:04:00Z","pid":4242,"#
            + #""startedAt":"2025-01-02T15:00:00Z","stoppedAt":"2025-01-02T15:04:30Z","version":"0.9"}"#
        ),
        ("ops", "forum", #"{"checkedAt":"2025-01-02T15:04:00Z","loggedIn":false}"#),
        (
          "ops", "transport:my irc",
          #"{"checkedAt":"2025-01-02T15:04:00Z","connected":false,"problem":"connection refused","reconnects":3,"#
            + ##""unreadableRooms":["#a"]}"##
        ),
        ("ops", "storage", #"{"checkedAt":"2025-01-02T15:04:00Z","since":"2025-01-02T14:00:00Z","state":"full"}"#),
        ("ops", "transport:broken", "not json"),
        ("transport:matrix", "deviceID", "DEVICE1"),
        ("transport:matrix", "since", "s72_9"),
        ("transport:my irc", "nick", "awfulbot_"),
      ])
    defer { file.remove() }
    let path = file.path

    let database = try BotDatabase(path: path)
    defer { try? database.close() }
    let iso = ISO8601DateFormatter()
    try database.readNow { tx in
      let daemon = try #require(try tx.daemonHeartbeat())
      #expect(daemon.pid == 4242 && daemon.version == "0.9" && daemon.heartbeatSeconds == 15)
      #expect(daemon.stoppedAt == iso.date(from: "2025-01-02T15:04:30Z"))
      let stamp = try #require(daemon.configuration)
      #expect(stamp.contains(#""path":"\/etc\/awfulbot.json""#) || stamp.contains(#""path":"/etc/awfulbot.json""#))
      #expect(try tx.forumSessionState()?.loggedIn == false)
      let connections = try tx.transportConnections()
      #expect(connections.keys.sorted() == ["my irc"], "a record that does not read is left for the next heartbeat")
      #expect(connections["my irc"]?.problem == "connection refused" && connections["my irc"]?.reconnects == 3)
      #expect(connections["my irc"]?.unreadableRooms == ["#a"])
      #expect(try tx.storageState()?.fullSince == iso.date(from: "2025-01-02T14:00:00Z"))
      #expect(try tx.transportState(transport: "matrix", key: "deviceID") == "DEVICE1")
      #expect(try tx.transportState(transport: "matrix", key: "since") == "s72_9")
      #expect(try tx.transportState(transport: "my irc", key: "nick") == "awfulbot_")
      #expect(try tx.transportsWithState() == ["matrix", "my irc"])
      #expect(try !tx.db.tableExists("keyValue"))
    }
  }
}
