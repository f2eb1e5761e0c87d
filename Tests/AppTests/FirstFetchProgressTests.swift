import AwfulBotApp
import AwfulBotTestKit
import ChatBridge
import Synchronization
import Testing

@Suite("progress of the first full bookmarks fetch")
struct FirstFetchProgressTests {
  final class Screen: Sendable {
    let written = Mutex<[String]>([])
    var reporter: ProgressReporter {
      ProgressReporter(enabled: true) { text in self.written.withLock { $0.append(text) } }
    }
    var lines: [String] { written.withLock { $0 } }
  }

  @Test("a new database shows each page read and ends the line after the last page")
  func showsPagesOfTheFirstFetch() {
    let screen = Screen()
    let progress = FirstFetchProgress(isFirstFetch: true, reporter: screen.reporter)
    for page in 1...3 { progress.pageRead(page, total: 3, isLast: page == 3) }
    #expect(screen.lines.count == 4)
    #expect(screen.lines[0].hasSuffix("first bookmarks fetch, pages read: 1/3"))
    #expect(screen.lines[2].hasSuffix("first bookmarks fetch, pages read: 3/3"))
    #expect(screen.lines[3] == "\n")
  }

  @Test("later polls read the same pages quietly")
  func laterPollsAreQuiet() {
    let screen = Screen()
    let progress = FirstFetchProgress(isFirstFetch: true, reporter: screen.reporter)
    progress.pageRead(1, total: 1, isLast: true)
    let afterFirst = screen.lines.count
    progress.pageRead(1, total: 1, isLast: true)
    #expect(afterFirst == 2)
    #expect(screen.lines.count == afterFirst)
  }

  @Test("a database that already knows threads shows nothing")
  func knownDatabaseIsQuiet() {
    let screen = Screen()
    let progress = FirstFetchProgress(isFirstFetch: false, reporter: screen.reporter)
    progress.pageRead(1, total: 5, isLast: false)
    #expect(screen.lines.isEmpty)
  }

  @Test("without a page count the line counts pages until the engine says it read the last one")
  func unknownTotal() {
    let screen = Screen()
    let progress = FirstFetchProgress(isFirstFetch: true, reporter: screen.reporter)
    progress.pageRead(1, total: nil, isLast: false)
    progress.pageRead(2, total: nil, isLast: true)
    progress.pageRead(1, total: nil, isLast: true)
    #expect(
      screen.lines == [
        "\r\u{1B}[2Kfirst bookmarks fetch, pages read: 1", "\r\u{1B}[2Kfirst bookmarks fetch, pages read: 2", "\n",
      ])
  }
}
