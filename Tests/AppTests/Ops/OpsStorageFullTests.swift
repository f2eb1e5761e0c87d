import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotStore
import Foundation
import Testing

/// What an operator sees of a full disk: `/readyz` and `awfulbot status` (read from the database by another
/// process) name it while writes fail, and stop naming it once a write lands again.
@Suite("ops: a full disk")
struct OpsStorageFullTests {
  @Test("status and readiness show a full disk while writes fail, and clear when space returns")
  func statusAndReadiness() async throws {
    try await OpsDaemonStandIn.withDatabase { path, database in
      let daemon = OpsDaemonStandIn(database: database, transports: [])
      await daemon.monitor.beat()
      var report = try StatusReport.read(databasePath: path)
      #expect(report.storage?.fullSince == nil)
      #expect(report.text().contains("disk: ✓"))
      #expect(!(await daemon.monitor.readiness()).problems.contains { $0.hasPrefix("storage:") })

      // The file may not grow (as on a full filesystem), and the pages it has are filled: the next growing write
      // fails with SQLITE_FULL.
      try database.limitGrowth()
      for index in 0..<100_000 where database.storage.fullSince == nil {
        try? database.writeNow { tx in
          try tx.setTransportState(
            String(repeating: "f", count: 500), transport: "filler", key: "\(index)", now: Date())
        }
      }
      #expect(database.storage.fullSince != nil)

      await daemon.monitor.beat()
      report = try StatusReport.read(databasePath: path)
      #expect(report.storage?.fullSince != nil, "the heartbeat's storage record did not land")
      #expect(report.needsAttention)
      let text = report.text()
      #expect(text.contains("disk: ✗ full since"), "\(text)")
      #expect(text.contains("new posts wait on the forum (none are lost)"))
      let problems = await daemon.monitor.readiness().problems
      #expect(problems.contains { $0.hasPrefix("storage: disk full since") }, "\(problems)")

      #expect(!(await database.checkStorage()), "the probe landed on a full disk")
      try database.removeGrowthLimit()
      #expect(await database.checkStorage())
      await daemon.monitor.beat()
      report = try StatusReport.read(databasePath: path)
      #expect(report.storage?.fullSince == nil)
      #expect(report.text().contains("disk: ✓"))
      #expect(!(await daemon.monitor.readiness()).problems.contains { $0.hasPrefix("storage:") })
      try await daemon.shutdown()
    }
  }

  @Test("a heartbeat too old on a full disk, the process alive: status says so instead of 'not responding'")
  func staleHeartbeatOnAFullDisk() async throws {
    try await OpsDaemonStandIn.withDatabase { path, database in
      let daemon = OpsDaemonStandIn(database: database, transports: [])
      await daemon.monitor.beat()
      let later = Date().addingTimeInterval(600)
      let full = try StatusReport.read(
        databasePath: path, now: later, freeSpace: { _ in 0 }, processIsAlive: { _ in true })
      #expect(full.daemon?.state == .aliveOnFullDisk)
      #expect(full.daemon?.isRunning == true, "restore refuses, transports are not shown as stopped")
      let text = full.text(now: later)
      #expect(text.contains("daemon: ! alive, disk full (pid"), "\(text)")
      #expect(text.contains("its heartbeat cannot be saved until space is freed"))
      #expect(full.needsAttention)
      // With room on the disk, or with no such process, an old heartbeat means the daemon is not responding.
      let roomy = try StatusReport.read(
        databasePath: path, now: later, freeSpace: { _ in 10 << 30 }, processIsAlive: { _ in true })
      #expect(roomy.daemon?.state == .notResponding)
      let gone = try StatusReport.read(
        databasePath: path, now: later, freeSpace: { _ in 0 }, processIsAlive: { _ in false })
      #expect(gone.daemon?.state == .notResponding && gone.daemon?.isRunning == false)
      try await daemon.shutdown()
    }
  }

  @Test("free space in words")
  func byteText() {
    #expect(ByteText.describe(512) == "512 B")
    #expect(ByteText.describe(3_200_000) == "3.2 MB")
    #expect(ByteText.describe(12_000_000_000) == "12.0 GB")
  }
}
