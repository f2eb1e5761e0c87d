import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotCore
import FakeForum
import Foundation
import Synchronization
import Testing

/// The Leper's Colony at the console (issue 44): the whole bot following `lepers` from its config against the
/// emulator, stopped and started again on the same data directory, as the console prints it.
@Suite("console: the Leper's Colony")
struct ConsoleLepersTests {
  /// One run of the bot: the console's printed lines, the way to type, and the running task.
  final class Run: Sendable {
    let application: BotApplication
    let input = Pipe()
    /// What the console printed, one entry per message.
    let printed = Printed()
    let task = Mutex<Task<Void, any Error>?>(nil)

    init(forum: URL, directory: URL) throws {
      let configuration = AppConfiguration(
        forum: .emulator(forum), dataDirectory: directory.path,
        polling: .init(bookmarksSeconds: 3600, announcementsSeconds: 3600, forumsSeconds: 3600, lepersSeconds: 3600),
        commands: .init(prefix: "!", botName: "awfulbot"), transports: [.console(name: "console")],
        rooms: [.init(transport: "console", room: "console", subscriptions: [.lepers])])
      let printed = printed
      let console = ConsoleTransport(name: "console", input: input.fileHandleForReading) { text in
        printed.append(text)
      }
      application = try BotApplication(
        configuration: configuration, transports: [console], progress: ProgressReporter(enabled: false))
    }

    func start() async throws {
      try await application.seedRooms()
      let application = application
      task.withLock { $0 = Task { try await application.run(signals: []) } }
      try await waitUntil("the first read of the Colony", timeout: .seconds(30)) {
        let sources = try await application.engine.statusReports.health().sources
        return sources.contains { $0.source == "lepers" && $0.lastSuccess != nil }
      }
    }

    func stop() async {
      let running = task.withLock { $0 }
      running?.cancel()
      _ = try? await running?.value
    }

    /// The relays printed (tags removed), once there are `count` and then nothing more for a second.
    func relays(_ count: Int) async throws -> [String] {
      let read = { self.printed.lines.filter { $0.hasPrefix("[relay]") } }
      try await waitUntil("\(count) relays", timeout: .seconds(60)) { read().count >= count }
      try await Task.sleep(for: .seconds(1))
      return read().map { String($0.dropFirst("[relay] ".count)) }
    }

    /// Types `line`; returns the answer printed for it.
    func say(_ line: String) async throws -> String {
      let replies = { self.printed.lines.filter { $0.hasPrefix("[reply]") } }
      let before = replies().count
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
      try await waitUntil("an answer to \(line)", timeout: .seconds(30)) { replies().count > before }
      return String(replies()[before].dropFirst("[reply] ".count))
    }
  }

  final class Printed: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
  }

  @Test("entries given before and during a stop are printed once each, in order; a rap sheet; a hostile reason")
  func acrossARestart() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let root = try await forum.start()
    let base = root.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    let directory = TestScratch.path("awfulbot-console-lepers")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = forum.state

    let first = try Run(forum: root, directory: directory)
    try await first.start()
    _ = try await state.addPunishment(
      kind: .probation, user: 1003, requester: 1005, approver: nil, reasonHTML: "posting in <b>all caps</b>",
      probationLength: "1 day", postID: 400_000_301)
    _ = try await state.addPunishment(
      kind: .ban, user: 1002, requester: 1005, approver: nil, reasonHTML: "ban evasion", postID: 400_000_302)
    #expect(await first.application.engine.polling.poll(.lepers).changed == 2)
    let before = try await first.relays(2)
    await first.stop()
    // The demo's four entries were on the Colony when the console started following it: none was printed.
    #expect(before.count == 2, "\(before)")
    #expect(before.first?.hasPrefix("PROBATION (1 day): Zoë Québec, by Majuju on ") == true, "\(before)")
    #expect(
      before.first?.hasSuffix(
        // The forum adds the probation's length to the reason, as the real one does.
        ": posting in all caps User loses posting privileges for 1 day. "
          + "\(base)/showthread.php?goto=post&postid=400000301#post400000301") == true, "\(before)")
    #expect(before.last?.hasPrefix("BAN: Pickled Tink, by Majuju on ") == true, "\(before)")

    _ = try await state.addPunishment(
      kind: .autoban, user: 1002, requester: 1004, approver: nil, reasonHTML: "too many probations")
    let second = try Run(forum: root, directory: directory)
    try await second.start()
    let after = try await second.relays(1)
    #expect(after.count == 1, "\(after)")
    #expect(after.first?.hasPrefix("AUTOBAN: Pickled Tink, by angerbot on ") == true, "\(after)")
    #expect(after.first?.hasSuffix(": too many probations \(base)/banlist.php?userid=1002") == true, "\(after)")

    let sheet = try await second.say("!lepers Pickled Tink")
    #expect(sheet.hasPrefix("Pickled Tink's rap sheet: 4 entries, newest first: \(base)/banlist.php?userid=1002\n"))
    #expect(sheet.components(separatedBy: "\n").count == 5, "\(sheet)")
    #expect(
      try await second.say("!lepers Nobody Here")
        == "The forum knows no user “Nobody Here”, so there is no rap sheet to show.")

    _ = try await state.addPunishment(
      kind: .permaban, user: 1003, requester: 1005, approver: nil,
      reasonHTML: "<script>alert(1)</script><b>bye</b> @room @everyone\u{1B}[31m\u{07}", postID: 400_000_303)
    #expect(await second.application.engine.polling.poll(.lepers).changed == 1)
    let hostile = try #require(try await second.relays(2).last)
    #expect(hostile.hasPrefix("PERMABAN: Zoë Québec, by Majuju on "), "\(hostile)")
    #expect(hostile.contains("bye @\u{2060}room @\u{2060}everyone"), "\(hostile)")
    #expect(!hostile.contains("<") && !hostile.contains("\u{1B}") && !hostile.contains("\u{07}"), "\(hostile)")
    await second.stop()
    await forum.stop()
  }
}
