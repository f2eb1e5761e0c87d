import AwfulBotApp
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumsClient
import Foundation

/// What `status` tests need of a running daemon: its heartbeat monitor over a database, with a forum client that
/// never logs in (the records matter, not the forum), reading the transports' states from `connections`.
package struct OpsDaemonStandIn {
  package let client: ForumsClient
  package let monitor: OperationsMonitor

  package init(
    database: BotDatabase, transports: [any ChatTransport], connections: TransportConnections = TransportConnections(),
    interval: Duration = .seconds(15)
  ) {
    client = ForumsClient(
      configuration: ForumsClientConfiguration(credentials: ForumCredentials(username: "bot", password: "pw")),
      cookieStore: DatabaseCookieStore(database: database))
    monitor = OperationsMonitor(
      database: database, client: client, transports: transports, connections: connections, interval: interval)
  }

  package func shutdown() async throws { try await client.shutdown() }

  /// Runs `body` with a new database file in a temporary directory (its path and the open database), then closes and
  /// removes both.
  package static func withDatabase<T>(_ body: (_ path: String, _ database: BotDatabase) async throws -> T) async throws
    -> T
  {
    let directory = TestScratch.path("awfulbot-ops")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("awfulbot.sqlite").path
    let database = try BotDatabase(path: path)
    do {
      let result = try await body(path, database)
      try database.close()
      return result
    } catch {
      try? database.close()
      throw error
    }
  }
}
