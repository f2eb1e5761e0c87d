import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

/// The metrics listener follows a reloaded config: turned off, on again at another address, and a first listener
/// that cannot bind ends the service (as a mistyped address at start should).
@Suite("ops: metrics listener reload")
struct MetricsListenerTests {
  private static func make(_ address: HostPort) -> MetricsServer {
    MetricsServer(address: address, readiness: { Readiness(problems: []) })
  }

  @Test("off, then on at another address: only the listener restarts, and it answers where the config says")
  func offAndOnAgain() async throws {
    let listener = MetricsListener(address: HostPort(host: "127.0.0.1", port: 0), makeServer: Self.make)
    let running = Task { try await listener.run() }
    defer { running.cancel() }
    let first = try #require(listener.current)
    let port = try await first.boundPort()
    #expect(try await OpsHTTP.get("http://127.0.0.1:\(port)/healthz") == (200, "ok\n"))

    listener.apply(nil)
    let stopped = try await eventually(timeout: .seconds(10), every: .milliseconds(50)) {
      guard listener.current == nil else { return false }
      return (try? await OpsHTTP.get("http://127.0.0.1:\(port)/healthz")) == nil
    }
    #expect(stopped, "the listener is gone once metrics are turned off")

    listener.apply(HostPort(host: "127.0.0.1", port: 0))
    let moved = try await eventually(timeout: .seconds(10), every: .milliseconds(50)) { listener.current != nil }
    #expect(moved)
    let second = try #require(listener.current)
    let newPort = try await second.boundPort()
    #expect(try await OpsHTTP.get("http://127.0.0.1:\(newPort)/healthz") == (200, "ok\n"))
  }

  @Test("a first listener that cannot bind ends the service with the error")
  func firstBindFailure() async throws {
    let holder = MetricsListener(address: HostPort(host: "127.0.0.1", port: 0), makeServer: Self.make)
    let holding = Task { try await holder.run() }
    defer { holding.cancel() }
    let taken = try await #require(holder.current).boundPort()
    let listener = MetricsListener(address: HostPort(host: "127.0.0.1", port: taken), makeServer: Self.make)
    await #expect(throws: (any Error).self) { try await listener.run() }
  }
}

/// The per-room outbox gauge follows the database: a room whose queue emptied reads 0, not its last count.
@Suite("ops: outbox gauge per room")
struct OutboxGaugeTests {
  @Test("a room that drained is set to 0 at the next refresh")
  func drainedRoomReadsZero() {
    AppMetrics.bootstrap()
    let room = "!gauge-\(UUID().uuidString.prefix(8))"
    let configured = { @Sendable (_: String, room: String) in room }
    let reported = AppMetrics.outbox(depthByRoom: [("matrix", room, 3)], deadLetters: 0, label: configured)
    #expect(
      OpsHTTP.value(in: AppMetrics.exposition(), "awfulbot_outbox_room_depth", ["room": room]) == 3)
    AppMetrics.outbox(depthByRoom: [], deadLetters: 0, reportedBefore: reported, label: configured)
    #expect(
      OpsHTTP.value(in: AppMetrics.exposition(), "awfulbot_outbox_room_depth", ["room": room]) == 0)
  }
}
