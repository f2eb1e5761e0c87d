import AwfulBotApp
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import FakeForum
import Foundation
import Logging
import MatrixTransport
import Testing

extension OpsMatrixTests {
  /// `check` and `status` about end-to-end encryption, with the pickle key from `AWFULBOT_MATRIX_PICKLE_KEY`.
  @Test("check shows encryption off, then on with the device's fingerprint; status lists encrypted rooms and keys")
  func encryptionInCheckAndStatus() async throws {
    try await OpsMatrixHarness.with { harness in
      let off = try await encryptionCheck(harness, environment: harness.environment)
      #expect(off.outcome == .skip)
      #expect(off.detail.hasPrefix("off: "))

      let pickleKey = "ops pickle key \(UUID())"
      let environment = harness.environment.merging(["AWFULBOT_MATRIX_PICKLE_KEY": pickleKey]) { $1 }
      let before = try await encryptionCheck(harness, environment: environment)
      #expect(before.outcome == .pass)
      #expect(before.detail == "on; the device's keys are made and published on the first run")

      let encrypted = try await harness.owner.createRoom(
        name: "secret", invite: [harness.bot.userID],
        initialState: [
          ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
        ])
      var configuration = try AppConfiguration.parse(data: harness.configurationJSON(), environment: environment)
      configuration.polling = .init(bookmarksSeconds: 0.5, announcementsSeconds: 600, forumsSeconds: 600)
      let application = try BotApplication(
        configuration: configuration,
        transportContext: TransportBuildContext(environment: environment, logger: Logger.quiet()),
        logger: Logger.quiet(), environment: environment)
      let transport = try application.matrixTransport
      var fingerprint = ""
      try await harness.running(application) {
        #expect(
          try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
            transport.encryptedRooms.contains(encrypted)
          })
        fingerprint = try #require(await transport.encryptionFingerprint())
        await application.monitor.beat()
        let report = try StatusReport.read(
          databasePath: application.configuration.databasePath, transportNames: ["matrix"])
        let matrix = try #require(report.transports.first { $0.name == "matrix" })
        #expect(matrix.unreadableRooms == nil, "commands in encrypted rooms are read")
        #expect(matrix.encryptedRooms == [encrypted: false], "no message sent there yet, so no key shared")
        #expect(report.text().contains("end-to-end encrypted rooms: \(encrypted) (key not shared yet)"))
      }

      let after = try await encryptionCheck(harness, environment: environment)
      #expect(after.outcome == .pass, "\(after.line)")
      let device = try #require(try await harness.bot.call("GET", ["account", "whoami"])["device_id"]?.stringValue)
      #expect(
        after.detail == "on for device \(device), ed25519 fingerprint \(MatrixEncryptionSetup.grouped(fingerprint))")
      #expect(!after.line.contains(pickleKey))

      let wrong = try await encryptionCheck(
        harness, environment: harness.environment.merging(["AWFULBOT_MATRIX_PICKLE_KEY": "another key"]) { $1 })
      #expect(wrong.outcome == .fail)
      #expect(wrong.detail.hasPrefix("the stored keys do not open with this pickle key"))
      #expect(!wrong.line.contains("another key"))
    }
  }

  func encryptionCheck(_ harness: OpsMatrixHarness, environment: [String: String]) async throws -> CheckResult {
    let path = harness.directory.appendingPathComponent("check-\(UUID()).json").path
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: try harness.configurationJSON(), attributes: [.posixPermissions: 0o600]))
    var check = ConfigurationCheck(configurationPath: path, environment: environment, logger: Logger.quiet())
    check.connectTimeout = .seconds(2)
    let results = await check.run()
    return try #require(results.first { $0.name == "encryption matrix" }, "\(results.map(\.line))")
  }
}
