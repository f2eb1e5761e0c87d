import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import ForumsClient
import Foundation
import ServiceLifecycle
import Testing

@Suite("ops: heartbeat while starting up")
struct OpsHeartbeatTests {
  @Test("until everything is up the heartbeat comes every second, so status soon shows the transport connected")
  func beatsOftenWhileUnsettled() async throws {
    try await OpsDaemonStandIn.withDatabase { databasePath, database in
      // A transport whose connection changes the test writes on its event stream (nothing is sent through it),
      // passed on to the daemon's connection states as the app's event service does.
      let (events, says) = AsyncStream.makeStream(of: ChatEvent.self)
      let transport = RecordingTransport(name: "switch", events: events)
      let connections = TransportConnections()
      let observe = connections.observer(for: transport.name)
      let listening = Task { for await event in transport.events { observe(event) } }
      // An hour between settled beats: only the start-up rhythm can make the change visible within the test.
      let daemon = OpsDaemonStandIn(
        database: database, transports: [transport], connections: connections, interval: .seconds(3600))
      let running = Task { try await daemon.monitor.run() }
      func switchLine() throws -> StatusReport.Transport? {
        try StatusReport.read(databasePath: databasePath, transportNames: ["switch"]).transports.first
      }
      #expect(
        try await eventually(timeout: .seconds(30), every: .milliseconds(100)) { try switchLine()?.connected == false })
      #expect(try switchLine()?.problem == "connecting")
      says.yield(.connection(.connected))
      #expect(
        try await eventually(timeout: .seconds(5), every: .milliseconds(100)) { try switchLine()?.connected == true })
      running.cancel()
      _ = await running.result
      says.finish()
      await listening.value
      try await daemon.shutdown()
    }
  }
}
