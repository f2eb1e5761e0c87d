import AwfulBotApp
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import Foundation
import Logging
import MatrixTransport
import Testing

/// `awfulbot run` and `awfulbot check` with a Matrix transport from the configuration, against the test Synapse.
@Suite(
  "ops: Matrix from the configuration", .serialized, .timeLimit(.minutes(3)),
  .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason))
struct OpsMatrixTests {
  static let devThread = 3_600_001

  @Test("run: the bot joins the configured room and a new forum post arrives there as exactly one m.notice")
  func relayFromConfiguration() async throws {
    try await OpsMatrixHarness.with { harness in
      let application = try harness.application()
      let transport = try application.matrixTransport
      #expect(transport.configuration.userID == harness.bot.userID)
      try await harness.running(application) {
        let joined = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
          transport.joinedRooms.contains(harness.room)
        }
        #expect(joined, "the bot joins the room named in the config")
        // The first bookmarks poll seeds the thread cursors: what is already there is never sent.
        let seeded = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
          try await application.database.read { try $0.threadCount() } > 0
        }
        #expect(seeded)

        let text = "Posted while the ops test watches \(UUID().uuidString.prefix(8))"
        _ = try await harness.forum.state.addPost(thread: Self.devThread, author: 1002, body: text)
        let events = try await harness.owner.waitForMessages(in: harness.room) { events in
          events.contains { $0.sender == harness.bot.userID && ($0.body ?? "").contains(text) }
        }
        let relayed = events.filter { $0.sender == harness.bot.userID }
        #expect(relayed.count == 1)
        #expect(relayed.first?.msgtype == "m.notice")
        #expect(relayed.first?.body?.contains(text) == true)
        // Two more bookmarks polls (counted in their health, not waited out) send nothing more, and the outbox has
        // nothing in flight that could still arrive.
        let polls = {
          try await application.database.read { tx in
            try tx.sourceHealth(source: "bookmarks")?.totalPolls ?? 0
          }
        }
        let pollsBefore = try await polls()
        try await waitUntil("two more bookmarks polls", timeout: .seconds(30)) { try await polls() >= pollsBefore + 2 }
        try await waitUntil("nothing in flight") {
          try await application.database.read { try $0.allOutboxRows() }.allSatisfy { $0.state != .pending }
        }
        let later = try await harness.owner.messages(in: harness.room).filter { $0.sender == harness.bot.userID }
        #expect(later.count == 1, "exactly one message for the post")
        let rows = try await application.database.read { try $0.allOutboxRows() }
        #expect(rows.count == 1 && rows.allSatisfy { $0.state == .delivered })
      }
    }
  }

  @Test("run: a room configured by alias is kept by id; kicking the bot from it pauses the room in the engine")
  func kickPausesRoom() async throws {
    try await OpsMatrixHarness.with { harness in
      let application = try harness.application(roomName: harness.alias)
      let transport = try application.matrixTransport
      let room = RoomRef(transport: "matrix", room: harness.room)
      try await harness.running(application) {
        #expect(
          try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
            transport.joinedRooms.contains(harness.room)
          })
        #expect(try await application.engine.subscriptions.subscriptions(room: room).map(\.target) == [.bookmarks])
        #expect(try await !application.engine.roomSettings.settings(room: room).isPaused)
        let rooms = try await application.database.read { try $0.allRooms() }
        #expect(rooms.map(\.room) == [harness.room], "seeded under the room id the alias stands for")
        try await harness.owner.kick(harness.bot.userID, from: harness.room, reason: "ops test")
        let paused = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
          try await application.engine.roomSettings.settings(room: room).isPaused
        }
        #expect(paused, "the engine reports the room paused")
        #expect(!transport.joinedRooms.contains(harness.room))
      }
    }
  }

  @Test("with encryption off, status lists the encrypted rooms the bot is in, where it cannot read commands")
  func statusShowsEncryptedRooms() async throws {
    try await OpsMatrixHarness.with { harness in
      let encrypted = try await harness.owner.createRoom(
        name: "secret", invite: [harness.bot.userID],
        initialState: [
          ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
        ])
      let application = try harness.application(matrix: ["encryption": ["enabled": false]])
      let transport = try application.matrixTransport
      try await harness.running(application) {
        #expect(
          try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
            transport.encryptedRooms.contains(encrypted)
          })
        await application.monitor.beat()
        let report = try StatusReport.read(
          databasePath: application.configuration.databasePath, transportNames: ["matrix"])
        let matrix = try #require(report.transports.first { $0.name == "matrix" })
        #expect(matrix.unreadableRooms == [encrypted])
        #expect(report.text().contains("encrypted rooms, commands there cannot be read: \(encrypted)"))
      }
    }
  }

  @Test("readiness: connecting before the transport starts, ready once its first sync told it is connected")
  func readiness() async throws {
    try await OpsMatrixHarness.with { harness in
      let application = try harness.application()
      #expect(await application.monitor.readiness().problems.contains("transport matrix: connecting"))
      try await harness.running(application) {
        let ready = try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
          await application.monitor.readiness().isReady
        }
        let problems = await application.monitor.readiness().problems
        #expect(ready, "\(problems)")
      }
    }
  }

  @Test("readiness: a rejected token without a password stops the transport and says so")
  func readinessWithRejectedToken() async throws {
    #expect(MatrixTransportStatus.starting.connectionProblem == "connecting")
    #expect(MatrixTransportStatus.connected(userID: "@a:b").connectionProblem == nil)
    #expect(MatrixTransportStatus.reconnecting(reason: "timeout").connectionProblem == "reconnecting (timeout)")
    #expect(MatrixTransportStatus.stopped(reason: "no").connectionState == .stopped(reason: "no"))
    try await OpsMatrixHarness.with { harness in
      var environment = harness.environment
      environment[OpsMatrixHarness.tokenVariable] = "syt_not_a_real_token"
      let database = try BotDatabase(path: harness.directory.appendingPathComponent("stopped.sqlite").path)
      // The secret is read with the configuration (as `awfulbot run` reads it), so the bad token goes in there.
      let transports = try TransportFactory.makeTransports(
        for: harness.configuration(environment: environment),
        context: TransportBuildContext(logger: Logger.quiet(), database: database))
      let transport = try #require(transports.first as? MatrixTransport)
      let problem = transport.status.connectionProblem
      #expect(problem == "connecting")
      // The transport's start fails (and with it the group): `awfulbot run` exits 78, which the systemd unit does
      // not restart, instead of a crash loop.
      let connections = TransportConnections()
      let observe = connections.observer(for: transport.name)
      let following = Task { for await event in transport.events { observe(event) } }
      defer { following.cancel() }
      let failure = await #expect(throws: MatrixTransportError.self) { try await transport.run() }
      #expect(failure.map(StartupFailure.exitCode(for:)) == StartupFailure.configurationExitCode)
      let stopped = transport.status.connectionProblem
      #expect(stopped?.hasPrefix("stopped: ") == true)
      #expect(stopped?.contains("rejected the access token") == true)
      #expect(stopped?.contains("syt_not_a_real_token") == false)
      // The same sentence went out on the event stream, which is what status and readiness read.
      #expect(
        try await eventually(timeout: .seconds(5), every: .milliseconds(50)) {
          connections.entry(transport.name).state.problem == stopped
        })
    }
  }

  // MARK: check

  /// The `check` line of the Matrix transport for a config with `matrix` merged into the transport.
  func checkLine(_ harness: OpsMatrixHarness, matrix: [String: Any?] = [:], environment: [String: String]? = nil)
    async throws -> CheckResult
  {
    let path = harness.directory.appendingPathComponent("check-\(UUID()).json").path
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: try harness.configurationJSON(matrix: matrix), attributes: [.posixPermissions: 0o600]))
    var check = ConfigurationCheck(
      configurationPath: path, environment: environment ?? harness.environment, logger: Logger.quiet())
    check.connectTimeout = .seconds(2)
    let results = await check.run()
    return try #require(results.first { $0.name == "transport matrix (matrix)" }, "\(results.map(\.line))")
  }

  @Test("check: a good token passes and names the account and homeserver")
  func checkGoodToken() async throws {
    try await OpsMatrixHarness.with { harness in
      let result = try await checkLine(harness)
      #expect(result.outcome == .pass, "\(result.line)")
      #expect(result.detail == "\(harness.bot.userID) on \(SynapseEnvironment.url!.absoluteString)")
      #expect(!result.line.contains(harness.bot.accessToken))
    }
  }

  @Test("check: a rejected token fails with the fix, and the token is not shown")
  func checkBadToken() async throws {
    try await OpsMatrixHarness.with { harness in
      var environment = harness.environment
      let badToken = "syt_ops_bad_\(UUID().uuidString)"
      environment[OpsMatrixHarness.tokenVariable] = badToken
      let result = try await checkLine(harness, environment: environment)
      #expect(result.outcome == .fail)
      #expect(result.detail == "token rejected (M_UNKNOWN_TOKEN)")
      #expect(result.line.contains("fix: create a new access token for \(harness.bot.userID) or set password"))
      #expect(!result.line.contains(badToken))
    }
  }

  @Test("check: an unreachable homeserver fails and says so")
  func checkUnreachable() async throws {
    try await OpsMatrixHarness.with { harness in
      let result = try await checkLine(harness, matrix: ["homeserver": "http://127.0.0.1:1"])
      #expect(result.outcome == .fail)
      #expect(result.detail.hasPrefix("homeserver unreachable: "), "\(result.line)")
      #expect(result.line.contains("fix: check homeserver (http://127.0.0.1:1)"))
      #expect(!result.line.contains(harness.bot.accessToken))
    }
  }

  @Test("check: with only a password it logs in and out again, leaving no new device behind")
  func checkPasswordOnly() async throws {
    try await OpsMatrixHarness.with { harness in
      let devicesBefore = try await harness.bot.call("GET", ["devices"])["devices"]?.arrayValue?.count
      var result = try await checkLine(
        harness, matrix: ["accessToken": nil, "password": ["env": "OPS_MATRIX_PASSWORD"]],
        environment: harness.environment.merging(["OPS_MATRIX_PASSWORD": harness.bot.password]) { $1 })
      #expect(result.outcome == .pass, "\(result.line)")
      #expect(result.detail.hasSuffix("(password login works)"))
      #expect(!result.line.contains(harness.bot.password))
      let devicesAfter = try await harness.bot.call("GET", ["devices"])["devices"]?.arrayValue?.count
      #expect(devicesAfter == devicesBefore, "the check's device is deleted again")

      result = try await checkLine(harness, matrix: ["accessToken": nil, "password": "wrong-password"])
      #expect(result.outcome == .fail)
      #expect(result.detail == "login rejected (M_FORBIDDEN)")
      #expect(!result.line.contains("wrong-password"))
    }
  }
}
