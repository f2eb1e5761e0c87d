import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import Logging
import MatrixTransport
import Testing

extension MatrixIntegrationTests.HostileChain {
  /// A room the config names by alias stays the room the operator meant (issue 43): the whole bot from a config file
  /// (`BotApplication`, as `awfulbot run` builds it) against Synapse, with `privateMessages.rooms` naming an alias,
  /// and a stranger on a server `allowedInviters` accepts who takes the alias over and invites the bot into their own
  /// room. What the stranger reads there, what the log and `check` say, and that the inbox never reaches them.
  @Suite("hostile: a configured alias taken over", .serialized)
  struct HostileForumAlias {
    static let secretTitle = "SECRET launch codes"

    /// The harness's config (the owner's room, by id unless `roomName` says otherwise), with `privateMessages.rooms`
    /// naming `alertAlias`, written to a file the reloader reads again.
    static func writeConfiguration(
      _ harness: OpsMatrixHarness, roomName: String? = nil, alertAlias: String, subscriptions: [String] = ["bookmarks"]
    ) throws -> String {
      var object = try #require(
        try JSONSerialization.jsonObject(with: harness.configurationJSON(roomName: roomName)) as? [String: Any])
      object["privateMessages"] = ["rooms": [["transport": "matrix", "room": alertAlias]]]
      object["rooms"] = [["transport": "matrix", "room": roomName ?? harness.room, "subscriptions": subscriptions]]
      let path = harness.directory.appendingPathComponent("awfulbot.json").path
      let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      #expect(FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]))
      return path
    }

    static func application(_ harness: OpsMatrixHarness, path: String, log: LogCapture) throws -> BotApplication {
      let logger = Logger.capturing(into: log)
      return try BotApplication(
        configuration: try AppConfiguration.load(path: path, environment: harness.environment),
        transportContext: TransportBuildContext(logger: logger), logger: logger,
        environment: harness.environment)
    }

    /// `text` said by `person` in `room`, and the bot's answer to it.
    static func ask(_ text: String, by person: MatrixHuman, in room: String) async throws -> String {
      let id = try await person.say(text, in: room)
      let events = try await person.waitForMessages(in: room, timeout: .seconds(30)) { events in
        events.contains { $0.replyTo == id }
      }
      return try #require(events.first { $0.replyTo == id }?.body, "the bot answers \(text)")
    }

    /// What `check` says about `alias`, and about who is in the private-message room it names.
    static func checkLines(_ harness: OpsMatrixHarness, path: String, alias: String) async throws
      -> (alias: CheckResult, members: CheckResult)
    {
      var check = ConfigurationCheck(configurationPath: path, environment: harness.environment, logger: .quiet())
      check.connectTimeout = .seconds(2)
      let results = await check.run()
      return (
        try #require(results.first { $0.name == "alias \(alias)" }, "\(results.map(\.line))"),
        try #require(
          results.first { $0.name == "private messages to matrix \(alias)" }, "\(results.map(\.line))")
      )
    }

    /// `!pms` from a stranger in their own room: refused, and nothing of the inbox in the answer.
    static func expectRefused(_ answer: String) {
      #expect(!answer.contains(secretTitle) && !answer.contains("unread private message"), "\(answer)")
      #expect(
        answer.contains("acts on the bot's forum account") || answer.contains("works only in a room the bot's config"),
        "\(answer)")
    }

    @Test("repointed to a stranger's room: after a restart and a reload the bot keeps the first room, and says so")
    func repointedAlias() async throws {
      try await OpsMatrixHarness.with { harness in
        // The harness's room A carries the alias; the config names it by that alias, for private messages too.
        let path = try Self.writeConfiguration(harness, roomName: harness.alias, alertAlias: harness.alias)
        let roomA = RoomRef(transport: "matrix", room: harness.room)
        let first = try Self.application(harness, path: path, log: LogCapture())
        try await harness.running(first) {
          #expect(first.engine.privateMessageRooms.all == [roomA])
          try await waitUntil("the bot joined A", timeout: .seconds(30)) {
            try first.matrixTransport.joinedRooms.contains(harness.room)
          }
        }
        try? first.database.close()

        // The stranger takes the alias (here as an admin of its homeserver, who may delete any alias) and points it
        // at a room of their own, then invites the bot there: their server is allowed, so the bot joins.
        let stranger = try await MatrixHuman.register("stranger", admin: true)
        let roomB = try await stranger.createRoom(name: "not the admins' room", invite: [harness.bot.userID])
        try await stranger.call("DELETE", ["directory", "room", harness.alias])
        try await stranger.call("PUT", ["directory", "room", harness.alias], body: ["room_id": .string(roomB)])
        _ = try await harness.forum.state.sendPrivateMessage(
          from: 1002, to: FakeForumSeed.botUserID, title: Self.secretTitle, body: "0000")

        // Restart, then a reload that touches the rooms (as an operator's edit would).
        let log = LogCapture()
        let second = try Self.application(harness, path: path, log: log)
        let reloader = ConfigurationReloader(
          application: second, path: path, logger: Logger.capturing(into: log), environment: { harness.environment })
        try await harness.running(second) {
          try await waitUntil("the bot joined the stranger's room", timeout: .seconds(30)) {
            try second.matrixTransport.joinedRooms.contains(roomB)
          }
          _ = try Self.writeConfiguration(
            harness, roomName: harness.alias, alertAlias: harness.alias, subscriptions: ["bookmarks", "announcements"])
          guard case .applied = await reloader.reload() else {
            Issue.record("the reload was refused")
            return
          }
          #expect(second.engine.privateMessageRooms.all == [roomA], "A stays the private-message room")
          let named = second.permissions.current.namedRooms
          #expect(named.contains(roomA) && !named.contains(RoomRef(transport: "matrix", room: roomB)))

          let strangers = try await Self.ask("!pms", by: stranger, in: roomB)
          Self.expectRefused(strangers)
          let owners = try await Self.ask("!pms", by: harness.owner, in: harness.room)
          #expect(owners.contains(Self.secretTitle), "the owner still reads the inbox in A: \(owners)")
        }
        try? second.database.close()

        // The warning names both rooms and says what to write; `check` shows it too, until a room id is written.
        // Said once (the alias is resolved for each entry naming it, to join it, and at the reload; the rest at debug).
        let warnings = log.entries.filter { $0.level == .warning && $0.metadata["answeredRoom"] == "\(roomB)" }
        #expect(warnings.count == 1, "\(log.lines.filter { $0.hasPrefix("warning") })")
        #expect(warnings.first?.metadata["pinnedRoom"] == "\(harness.room)")
        #expect(
          warnings.first?.line.contains("write \(harness.room) in the config in place of \(harness.alias)") == true)
        let (line, members) = try await Self.checkLines(harness, path: path, alias: harness.alias)
        #expect(line.outcome == .warn, "\(line.line)")
        #expect(line.detail.contains(roomB) && line.detail.contains(harness.room), "\(line.line)")
        // Who reads the alerts is asked of the pinned room: the owner's, not the stranger's.
        #expect(members.detail.contains(harness.owner.userID), "\(members.line)")
        #expect(!members.detail.contains(stranger.userID), "\(members.line)")
      }
    }

    @Test("an alias nobody held: a stranger who creates it and invites the bot gets nothing, and check fails")
    func aliasNobodyHeld() async throws {
      try await OpsMatrixHarness.with { harness in
        let aliasName = "admins_\(UUID().uuidString.prefix(8).lowercased())"
        let alias = "#\(aliasName):localhost"
        let path = try Self.writeConfiguration(harness, alertAlias: alias)
        let log = LogCapture()
        let application = try Self.application(harness, path: path, log: log)
        let reloader = ConfigurationReloader(
          application: application, path: path, logger: Logger.capturing(into: log),
          environment: { harness.environment })
        let stranger = try await MatrixHuman.register("stranger")
        try await harness.running(application) {
          #expect(application.engine.privateMessageRooms.all.isEmpty, "nobody holds the alias yet")
          // The stranger creates the alias on a room of their own and invites the bot, which joins (allowed server).
          let roomB = try await stranger.createRoom(
            name: "admins", invite: [harness.bot.userID], alias: aliasName)
          try await waitUntil("the bot joined the stranger's room", timeout: .seconds(30)) {
            try application.matrixTransport.joinedRooms.contains(roomB)
          }
          _ = try await harness.forum.state.sendPrivateMessage(
            from: 1002, to: FakeForumSeed.botUserID, title: Self.secretTitle, body: "0000")
          _ = try Self.writeConfiguration(harness, alertAlias: alias, subscriptions: ["bookmarks", "announcements"])
          guard case .applied = await reloader.reload() else {
            Issue.record("the reload was refused")
            return
          }
          #expect(application.engine.privateMessageRooms.all.isEmpty, "the stranger's room is not taken")
          #expect(!application.permissions.current.namedRooms.contains(RoomRef(transport: "matrix", room: roomB)))
          Self.expectRefused(try await Self.ask("!pms", by: stranger, in: roomB))
          #expect(
            log.entries.contains { $0.level == .warning && $0.metadata["room"] == "\(roomB)" },
            "\(log.lines.filter { $0.hasPrefix("warning") })")
        }
        try? application.database.close()
        let line = try await Self.checkLines(harness, path: path, alias: alias).alias
        #expect(line.outcome == .fail, "\(line.line)")
        #expect(line.detail.contains("not taken"), "\(line.line)")
      }
    }
  }
}
