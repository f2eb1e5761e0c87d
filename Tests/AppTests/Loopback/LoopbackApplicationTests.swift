import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import Synchronization
import Testing

@testable import BotCore

/// The assembled application (`BotApplication`: store, client, engine, poller, dispatcher, command service) against
/// the emulator, driven from a console transport whose input is a pipe.
@Suite("Loopback application")
struct LoopbackApplicationTests {
  @Test("!watch from the console bookmarks the thread on the forum and answers; a new post arrives as a relay")
  func watchFromTheConsole() async throws {
    try await withLoopbackWorld { world in
      let console = LoopbackConsole()
      let application = try console.application(world: world)
      try await console.running(application) {
        console.type("!watch \(LoopbackWorld.unbookmarkedThread)")
        try await waitUntil("the watch is answered") { console.lines.contains { $0.hasPrefix("[reply] Watching") } }
        let reply = try #require(console.lines.first { $0.hasPrefix("[reply]") })
        #expect(reply.contains("What did you eat today?"))
        #expect(reply.contains("bookmarked on the forum"))
        #expect(await world.state.bookmarks(user: LoopbackWorld.botUserID)[LoopbackWorld.unbookmarkedThread] != nil)

        let postID = try await world.state.addPost(
          thread: LoopbackWorld.unbookmarkedThread, author: LoopbackWorld.poster, body: "Relayed by the application")
        try await waitUntil("the post is relayed") {
          console.lines.contains { $0.hasPrefix("[relay]") && $0.contains("Relayed by the application") }
        }
        let relay = try #require(console.lines.first { $0.hasPrefix("[relay]") })
        #expect(relay.contains(await world.postLink(thread: LoopbackWorld.unbookmarkedThread, postID: postID)))
      }
      #expect(console.lines.filter { $0.hasPrefix("[relay]") }.count == 1)
      #expect(await world.requests(to: "/showthread.php").allSatisfy { $0.queryValue("noseen") == "1" })
    }
  }

  @Test("after a restart on the same data directory, commands are still answered")
  func commandsAreAnsweredAfterARestart() async throws {
    try await withLoopbackWorld { world in
      for run in 1...2 {
        let console = LoopbackConsole()
        let application = try console.application(world: world)
        try await console.running(application) {
          console.type("!subscriptions")
          try await waitUntil("run \(run) answers the command") { console.lines.contains { $0.hasPrefix("[reply]") } }
        }
      }
    }
  }
}

/// A console transport fed through a pipe, with its output captured line by line.
final class LoopbackConsole: Sendable {
  private let input = Pipe()
  private let output = CapturedLines()
  let transport: ConsoleTransport

  init() {
    let output = output
    transport = ConsoleTransport(name: "console", input: input.fileHandleForReading) { output.append($0) }
  }

  /// Everything the bot wrote, one entry per message.
  var lines: [String] { output.lines }

  func type(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// The application on the world's forum and database file, polling bookmarks several times a second.
  func application(world: LoopbackWorld) throws -> BotApplication {
    let configuration = AppConfiguration(
      forum: .emulator(world.baseURL, requestSpacingSeconds: 0, requestTimeoutSeconds: 20),
      dataDirectory: URL(fileURLWithPath: world.databasePath).deletingLastPathComponent().path,
      polling: .init(bookmarksSeconds: 0.2, announcementsSeconds: 60, forumsSeconds: 60),
      commands: .init(prefix: "!", botName: "awfulbot"),
      transports: [.console(name: "console")])
    return try BotApplication(
      configuration: configuration, transports: [transport], databasePath: world.databasePath,
      logger: Logger.quiet())
  }

  /// Runs the application's services while `body` runs, then shuts them down gracefully and waits for the end.
  /// The application's own `shutdownAfter` is only a safety net should the test hang.
  func running(_ application: BotApplication, _ body: () async throws -> Void) async throws {
    // End of input lets the console's reader thread finish once the test is done with it.
    defer { try? input.fileHandleForWriting.close() }
    try await application.whileRunning(body)
  }
}

/// What the console transport wrote, shared between its sends and the test.
private final class CapturedLines: Sendable {
  private let storage = Mutex<[String]>([])
  var lines: [String] { storage.withLock { $0 } }
  func append(_ line: String) { storage.withLock { $0.append(line) } }
}
