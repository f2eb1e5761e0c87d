import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import MatrixCrypto
import MatrixTransport
import Testing

extension OpsMatrixTests {
  /// `check` and `status` about end-to-end encryption, read as an operator would: where the pickle key comes from,
  /// the device and its fingerprint, and the identity the homeserver publishes with its chain checked.
  @Test("check shows where the pickle key is, the device, and the published chain with the master key; status agrees")
  func encryptionInCheckAndStatus() async throws {
    try await OpsMatrixHarness.with { harness in
      let keyFile = harness.directory.appendingPathComponent("data/matrix-matrix.pickle-key").path
      let fresh = try await encryptionChecks(harness, environment: harness.environment)
      #expect(fresh.first?.outcome == .pass)
      #expect(
        fresh.first?.detail == "on; the first run makes a pickle key in \(keyFile) (readable only by the bot's "
          + "user), then the device's keys and the bot's cross-signing identity")

      let off = try await encryptionChecks(
        harness, environment: harness.environment, matrix: ["encryption": ["enabled": false]])
      #expect(off.first?.outcome == .warn)
      #expect(off.first?.detail.hasPrefix("off: each encrypted room is told once") == true)

      let pickleKey = "ops pickle key \(UUID())"
      let environment = harness.environment.merging(["AWFULBOT_MATRIX_PICKLE_KEY": pickleKey]) { $1 }
      let before = try await encryptionChecks(harness, environment: environment)
      #expect(
        before.first?.detail
          == "on (the pickle key from the config); the device's keys are made and published on the first run")

      let encrypted = try await harness.owner.createRoom(
        name: "secret", invite: [harness.bot.userID],
        initialState: [
          ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
        ])
      var configuration = try AppConfiguration.parse(data: harness.configurationJSON(), environment: environment)
      configuration.polling = .init(bookmarksSeconds: 0.5, announcementsSeconds: 600, forumsSeconds: 600)
      let application = try BotApplication(
        configuration: configuration,
        transportContext: TransportBuildContext(logger: Logger.quiet()),
        logger: Logger.quiet(), environment: environment)
      let transport = try application.matrixTransport
      var fingerprint = ""
      var master = ""
      try await harness.running(application) {
        #expect(
          try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
            transport.encryptedRooms.contains(encrypted)
          })
        fingerprint = try #require(await transport.encryptionFingerprint())
        master = try #require(await transport.encryptionIdentityStatus()?.masterKey)
        await application.monitor.beat()
        let report = try StatusReport.read(
          databasePath: application.configuration.databasePath, transportNames: ["matrix"])
        let matrix = try #require(report.transports.first { $0.name == "matrix" })
        #expect(matrix.unreadableRooms == nil, "commands in encrypted rooms are read")
        #expect(matrix.encryptedRooms == [encrypted: false], "no message sent there yet, so no key shared")
        let text = report.text()
        #expect(
          text.contains("end-to-end encrypted rooms: \(encrypted) (key not on every trusted device yet)"), "\(text)")
        #expect(
          text.contains(
            "encryption: cross-signed identity, master key \(MatrixEncryptionSetup.grouped(master)); room keys and "
              + "commands only for devices their owner verified"), "\(text)")
      }

      let after = try await encryptionChecks(harness, environment: environment)
      let device = try #require(try await harness.bot.call("GET", ["account", "whoami"])["device_id"]?.stringValue)
      #expect(after.map(\.outcome) == [.pass, .pass], "\(after.map(\.line))")
      #expect(
        after.first?.detail
          == "on (the pickle key from the config) for device \(device), ed25519 \(MatrixEncryptionSetup.grouped(fingerprint))"
      )
      #expect(
        after.last?.detail
          == "cross-signed: master key \(MatrixEncryptionSetup.grouped(master)) → self-signing key → device \(device), "
          + "each signature checked; trusts only devices their owner cross-signed")
      #expect(!after.map(\.line).joined().contains(pickleKey))

      let wrong = try await encryptionChecks(
        harness, environment: harness.environment.merging(["AWFULBOT_MATRIX_PICKLE_KEY": "another key"]) { $1 })
      #expect(wrong.first?.outcome == .fail)
      #expect(wrong.first?.detail.hasPrefix("the stored keys do not open with the pickle key from the config") == true)
      #expect(!wrong.map(\.line).joined().contains("another key"))
    }
  }

  func encryptionChecks(
    _ harness: OpsMatrixHarness, environment: [String: String], matrix: [String: Any?] = [:]
  ) async throws -> [CheckResult] {
    let path = harness.directory.appendingPathComponent("check-\(UUID()).json").path
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: try harness.configurationJSON(matrix: matrix), attributes: [.posixPermissions: 0o600]))
    var check = ConfigurationCheck(configurationPath: path, environment: environment, logger: Logger.quiet())
    check.connectTimeout = .seconds(2)
    let results = await check.run()
    let lines = results.filter { $0.name == "encryption matrix" || $0.name == "identity matrix" }
    #expect(!lines.isEmpty, "\(results.map(\.line))")
    return lines
  }
}
