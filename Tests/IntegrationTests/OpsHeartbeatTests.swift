import AwfulBotApp
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import ForumsClient
import Foundation
import ServiceLifecycle
import Synchronization
import Testing

@Suite("ops: heartbeat while starting up")
struct OpsHeartbeatTests {
  /// A transport seam whose connection state the test sets (nothing is sent through it).
  final class SwitchableTransport: ChatTransport {
    let name = "switch"
    let capabilities = ChatCapabilities.plainText
    let events = AsyncStream<ChatEvent> { $0.finish() }
    let problem = Mutex<String?>("connecting")

    func run() async throws {}
    func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
      DeliveryReceipt(id: idempotencyKey)
    }
    func connectionProblem() async -> String? { problem.withLock { $0 } }
  }

  @Test("until everything is up the heartbeat comes every second, so status soon shows the transport connected")
  func beatsOftenWhileUnsettled() async throws {
    try await OpsDaemonStandIn.withDatabase { databasePath, database in
      let transport = SwitchableTransport()
      // An hour between settled beats: only the start-up rhythm can make the change visible within the test.
      let daemon = OpsDaemonStandIn(database: database, transports: [transport], interval: .seconds(3600))
      let running = Task { try await daemon.monitor.run() }
      func switchLine() throws -> StatusReport.Transport? {
        try StatusReport.read(databasePath: databasePath, transportNames: ["switch"]).transports.first
      }
      #expect(
        try await eventually(timeout: .seconds(30), every: .milliseconds(100)) { try switchLine()?.connected == false })
      #expect(try switchLine()?.problem == "connecting")
      transport.problem.withLock { $0 = nil }
      #expect(
        try await eventually(timeout: .seconds(5), every: .milliseconds(100)) { try switchLine()?.connected == true })
      running.cancel()
      _ = await running.result
      try await daemon.shutdown()
    }
  }
}
