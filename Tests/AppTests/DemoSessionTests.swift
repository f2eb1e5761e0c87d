import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Foundation
import Synchronization
import Testing

/// The demo as a user runs it with piped input: commands answered, relays arriving from the activity generator.
@Suite("awfulbot demo")
struct DemoSessionTests {
  @Test("a piped session answers the commands and relays new posts")
  func pipedSession() async throws {
    let output = Mutex<[String]>([])
    let input = Pipe()
    input.fileHandleForWriting.write(Data("!bookmarks\n!status\n!nonsense\n".utf8))
    try input.fileHandleForWriting.close()
    let directory = TestScratch.path("awfulbot-demo-test")
    defer { try? FileManager.default.removeItem(at: directory) }

    try await runDemo(
      DemoOptions(duration: 12, dataDirectory: directory.path, speed: 4), input: input.fileHandleForReading,
      write: { line in output.withLock { $0.append(line) } })

    let text = output.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("[reply] Bookmarks, page 1 of 1"))
    #expect(text.contains("AwfulBot development thread"))
    #expect(text.contains("Follows: all bookmarks; announcements"))
    #expect(text.contains("Unknown command “nonsense”"))
    // The generator posts every 2 s at speed 4; the bot polls bookmarks every 5 s.
    let relays = output.withLock { $0.filter { $0.hasPrefix("[relay]") } }
    #expect(!relays.isEmpty)
    // Subscribing seeds the cursors: none of the 94 posts already in the seeded threads is relayed.
    #expect(!text.contains("Reply number"))
    #expect(text.contains("demo finished"))
  }
}
