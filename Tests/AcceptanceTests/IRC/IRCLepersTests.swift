import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

/// The Leper's Colony on InspIRCd against the emulator (issue 44): the whole bot (`BotApplication`) with a channel
/// that follows `lepers` from its config, stopped and started again on the same database, and what the channel reads.
extension IRCLiveTests {
  @Suite("the Leper's Colony on IRC", .serialized)
  struct Lepers {
    /// The whole bot on `directory`'s database, following the Colony in `channel`; returns once its first round
    /// read the Colony (what the Colony held at the first start is recorded, not relayed).
    static func startBot(
      _ environment: IRCTestEnvironment, nick: String, channel: String, forum: URL, directory: URL
    ) async throws -> (BotApplication, Task<Void, any Error>) {
      let irc = botConfiguration(environment, nick: nick, channels: [channel])
      let transport = try IRCTransport(configuration: irc, logger: Logger.quiet())
      let configuration = AppConfiguration(
        forum: .emulator(forum), dataDirectory: directory.path,
        polling: .init(bookmarksSeconds: 3600, announcementsSeconds: 3600, forumsSeconds: 3600, lepersSeconds: 3600),
        commands: .init(
          prefix: "!", botName: "awfulbot", userCommandsPerMinute: 0, roomCommandsPerMinute: 0,
          forumRequestsPerMinute: 0),
        transports: [TransportSettings(IRCPlugin.self, name: "irc", configuration: irc)],
        rooms: [.init(transport: "irc", room: IRCCaseMapping.fold(channel), subscriptions: [.lepers])])
      let application = try BotApplication(
        configuration: configuration, transports: [transport], logger: Logger.quiet(),
        progress: ProgressReporter(enabled: false))
      try await application.seedRooms()
      let task = Task { try await application.run(signals: []) }
      try await waitUntil(timeout: .seconds(20)) {
        let sources = (try? await application.engine.statusReports.health().sources) ?? []
        return sources.contains { $0.source == "lepers" && $0.lastSuccess != nil }
      }
      return (application, task)
    }

    static func stopBot(_ bot: (BotApplication, Task<Void, any Error>)) async {
      bot.1.cancel()
      _ = try? await bot.1.value
    }

    /// The bot's lines to the channel (relays are NOTICEs, answers PRIVMSGs) from `mark` on, once there are `count`
    /// and nothing more came for a second.
    static func lines(
      _ count: Int, from nick: String, to channel: String, after mark: Int, on client: IRCTestClient
    ) async throws -> [String] {
      let isBot: @Sendable (ReceivedLine) -> Bool = {
        $0.nick == nick && ($0.command == "PRIVMSG" || $0.command == "NOTICE")
          && $0.parameters.first?.lowercased() == channel.lowercased()
      }
      _ = try await client.waitForCount(count, "\(count) lines from the bot", from: mark, where: isBot)
      try await Task.sleep(for: .seconds(1))
      return await client.lines[mark...].filter(isBot).map(\.text)
    }

    @Test("three new entries are relayed once each, in order, across a restart; the rap sheet; a hostile reason")
    func transcript() async throws {
      let environment = try IRCTestEnvironment.required
      let channel = IRCTestEnvironment.unique("#lepers-")
      var nick = IRCTestEnvironment.unique("bot")
      let reader = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("rd"), environment: environment)
      try await reader.join(channel)
      let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
      let root = try await forum.start()
      let base = root.absoluteString.hasSuffix("/") ? String(root.absoluteString.dropLast()) : root.absoluteString
      let admin = FakeForumAdminClient(baseURL: root)
      let directory = TestScratch.path("awfulbot-irc-lepers")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }

      // The demo's four entries are on the Colony when the channel starts following it: none is relayed.
      var mark = await reader.mark()
      var bot = try await Self.startBot(environment, nick: nick, channel: channel, forum: root, directory: directory)
      try await reader.waitForJoin(of: nick)
      _ = try await admin.addPunishment(
        kind: "probation", user: "Zoë Québec", requester: "Majuju", reason: "posting in <b>all caps</b>",
        length: "6 hours", post: 400_000_101)
      _ = try await admin.addPunishment(
        kind: "ban", user: "Pickled Tink", requester: "Majuju", reason: "ban evasion", post: 400_000_102)
      #expect(await bot.0.engine.polling.poll(.lepers).succeeded)
      let before = try await Self.lines(2, from: nick, to: channel, after: mark, on: reader)
      #expect(
        before.map { $0.replacingOccurrences(of: base, with: "FORUM") } == [
          "PROBATION (6 hours): Zoë Québec, by Majuju on \(before.first.map(Self.date) ?? ""): posting in all caps "
            + "User loses posting privileges for 6 hours. FORUM/showthread.php?goto=post&postid=400000101#post400000101",
          "BAN: Pickled Tink, by Majuju on \(before.last.map(Self.date) ?? ""): ban evasion "
            + "FORUM/showthread.php?goto=post&postid=400000102#post400000102",
        ], "\(before)")

      // Stopped; an entry is given while the bot is away; started again on the same database.
      await Self.stopBot(bot)
      _ = try await admin.addPunishment(
        kind: "autoban", user: "Pickled Tink", requester: "angerbot", reason: "autoban: too many probations")
      mark = await reader.mark()
      // Another nick: the server may still hold the first one for a moment.
      nick = IRCTestEnvironment.unique("bot")
      bot = try await Self.startBot(environment, nick: nick, channel: channel, forum: root, directory: directory)
      let after = try await Self.lines(1, from: nick, to: channel, after: mark, on: reader)
      #expect(after.count == 1, "\(after)")
      #expect(after.first?.hasPrefix("AUTOBAN: Pickled Tink, by angerbot on ") == true, "\(after)")
      // Without a post, the entry links the user's rap sheet.
      #expect(after.first?.hasSuffix("\(base)/banlist.php?userid=1002") == true, "\(after)")
      #expect(await bot.0.engine.polling.poll(.lepers).changed == 0)

      // A rap sheet: Pickled Tink has the demo's two entries and the two given here.
      mark = await reader.mark()
      try await reader.send("PRIVMSG \(channel) :!lepers Pickled Tink")
      let sheet = try await Self.lines(5, from: nick, to: channel, after: mark, on: reader)
      #expect(sheet.first == "Pickled Tink's rap sheet: 4 entries, newest first: \(base)/banlist.php?userid=1002")
      #expect(sheet.dropFirst().first?.hasPrefix("• AUTOBAN, ") == true, "\(sheet)")
      #expect(sheet.count == 5)
      mark = await reader.mark()
      try await reader.send("PRIVMSG \(channel) :!lepers Nobody Here")
      #expect(
        try await Self.lines(1, from: nick, to: channel, after: mark, on: reader) == [
          "The forum knows no user “Nobody Here”, so there is no rap sheet to show."
        ])

      // A hostile reason: markup, a script, @room and a crowd of mentions, read as text, pinging nobody.
      mark = await reader.mark()
      _ = try await admin.addPunishment(
        kind: "permaban", user: "Zoë Québec", requester: "Majuju",
        reason:
          "<script>alert(1)</script><b>bye</b> @room @everyone @\(reader.nick) @a @b @c @d @e @f\r\nPRIVMSG #x :hi",
        post: 400_000_103)
      #expect(await bot.0.engine.polling.poll(.lepers).succeeded)
      let hostile = try await Self.lines(1, from: nick, to: channel, after: mark, on: reader)
      #expect(hostile.count == 1, "\(hostile)")
      let line = hostile.first ?? ""
      #expect(line.hasPrefix("PERMABAN: Zoë Québec, by Majuju on "), "\(line)")
      #expect(line.contains("bye @\u{2060}room @\u{2060}everyone"), "\(line)")
      #expect(!line.contains("@room") && !line.contains("<script>") && !line.contains("<b>"), "\(line)")
      #expect(!line.contains("@\(reader.nick)"), "\(line)")

      await Self.stopBot(bot)
      await forum.stop()
      await reader.quit()
    }

    /// The "2026-12-07 10:10 UTC" of a relay line.
    static func date(_ line: String) -> String {
      guard let on = line.range(of: " on "), let colon = line.range(of: " UTC", range: on.upperBound..<line.endIndex)
      else { return "" }
      return String(line[on.upperBound..<colon.upperBound])
    }
  }
}
