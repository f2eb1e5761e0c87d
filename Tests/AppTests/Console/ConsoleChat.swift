import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotCore
import FakeForum
import Foundation
import Synchronization
import Testing

/// The whole bot with the console as its chat room, against the forum emulator (demo seed): what a person at the
/// console types and reads. Lines are typed one at a time and each answer is waited for, so a transcript reads in
/// the order a person saw it.
final class ConsoleChat: Sendable {
  let forum: FakeForumServer
  let baseURL: URL
  private let input = Pipe()
  private let output = Mutex<[String]>([])
  private let running = Mutex<Task<Void, any Error>?>(nil)
  private let directory: URL
  private let application = Mutex<BotApplication?>(nil)

  private init(forum: FakeForumServer, baseURL: URL, directory: URL) {
    self.forum = forum
    self.baseURL = baseURL
    self.directory = directory
  }

  /// Starts the emulator and the bot (bookmarks polled every `pollSeconds`), subscribed to the bookmarks and the
  /// announcements and told about private messages to the bot, and waits until the first poll has seeded the
  /// cursors.
  static func start(pollSeconds: Double = 1) async throws -> ConsoleChat {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let directory = TestScratch.path("awfulbot-console")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let chat = ConsoleChat(forum: forum, baseURL: baseURL, directory: directory)
    let configuration = AppConfiguration(
      forum: .emulator(baseURL),
      dataDirectory: directory.path,
      polling: .init(
        bookmarksSeconds: pollSeconds, announcementsSeconds: pollSeconds, forumsSeconds: pollSeconds,
        privateMessagesSeconds: pollSeconds),
      commands: .init(prefix: "!", botName: "awfulbot"),
      transports: [.console(name: "console")],
      rooms: [.init(transport: "console", room: "console", subscriptions: [.bookmarks(stars: []), .announcements])],
      privateMessages: .init(rooms: [.init(transport: "console", room: "console")]))
    let console = ConsoleTransport(name: "console", input: chat.input.fileHandleForReading) { text in
      chat.output.withLock { $0.append(text) }
    }
    let application = try BotApplication(
      configuration: configuration, transports: [console], progress: ProgressReporter(enabled: false))
    try await application.seedRooms()
    chat.application.withLock { $0 = application }
    chat.running.withLock { $0 = Task { try await application.run(signals: []) } }
    // The first polls record what exists; nothing already posted is relayed. Waiting for them rather than for a fixed
    // time keeps a post a test adds from being taken for an old one on a loaded machine.
    try await waitUntil("the first poll of every source", timeout: .seconds(30)) {
      let polled = Set(try await application.engine.statusReports.health().sources.map(\.source))
      return polled.isSuperset(of: ["bookmarks", "announcements", "privateMessages"])
    }
    return chat
  }

  /// Everything the console printed so far, one entry per message.
  var transcript: [String] { output.withLock { $0 } }

  /// Types `line` and returns the answer printed for it (without its `[reply] ` tag).
  func say(_ line: String, timeout: Duration = .seconds(20)) async throws -> String {
    let before = output.withLock { $0.count { $0.hasPrefix("[reply]") } }
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
    let replies = try await readUntil(timeout: timeout) {
      output.withLock { $0.filter { $0.hasPrefix("[reply]") } }
    } until: {
      $0.count > before
    }
    guard replies.count > before else { throw ChatTimeout(what: "an answer to \(line)") }
    return String(replies[before].dropFirst("[reply] ".count))
  }

  /// Waits until `count` relays arrived after the first `after` ones and returns them (tags removed). The limit is
  /// generous because a full parallel `swift test` on a busy 2-core machine starved a 30 s wait once.
  func relays(after: Int = 0, count: Int, timeout: Duration = .seconds(90)) async throws -> [String] {
    let relays = try await readUntil(every: .milliseconds(50), timeout: timeout) {
      output.withLock { $0.filter { $0.hasPrefix("[relay]") } }.dropFirst(after)
    } until: {
      $0.count >= count
    }
    guard relays.count >= count else { throw ChatTimeout(what: "\(count) relays") }
    return relays.prefix(count).map { String($0.dropFirst("[relay] ".count)) }
  }

  /// Polls the bookmarks now, as the poller would (for tests that poll by hand, started with a long `pollSeconds`).
  @discardableResult
  func pollBookmarks() async throws -> PollReport {
    let application = try #require(application.withLock { $0 })
    return await application.engine.polling.poll(.bookmarks)
  }

  var relayCount: Int { output.withLock { $0.count { $0.hasPrefix("[relay]") } } }

  func stop() async {
    let task = running.withLock { $0 }
    task?.cancel()
    _ = try? await task?.value
    await forum.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs `body` with a started chat and always stops it.
  static func with(pollSeconds: Double = 1, _ body: (ConsoleChat) async throws -> Void) async throws {
    try await using(start(pollSeconds: pollSeconds), tearDown: { await $0.stop() }, body)
  }

  struct ChatTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
  }
}
