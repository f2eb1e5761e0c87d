import AwfulBotTestKit
import ChatBridge
import Synchronization
import Testing

@testable import BotCore

@Suite("bookmarks fetch progress hook")
struct EngineBookmarksProgressTests {
  @Test("each bookmarks page read is reported, the last one marked as last")
  func reportsEveryPage() async throws {
    let calls = Mutex<[String]>([])
    let harness = try EngineHarness { configuration in
      configuration.bookmarksPageRead = { page, total, isLast in
        calls.withLock { $0.append("\(page)/\(total.map(String.init) ?? "?")\(isLast ? " last" : "")") }
      }
    }
    // 85 bookmarked threads: three pages of 40.
    for index in 1...85 { harness.forum.addThread("\(index)", posts: 1) }
    await harness.cycle()
    #expect(calls.withLock { $0 } == ["1/3", "2/3", "3/3 last"])
  }
}
