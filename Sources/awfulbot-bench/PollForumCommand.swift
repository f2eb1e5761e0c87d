import ArgumentParser
import FakeForum
import Foundation

/// `awfulbot-bench poll-forum`: the forum emulator for `poll`, in a process of its own so that the bot's CPU time
/// and memory are measured without the emulator's (rendering 600 pages costs about as much as reading them).
///
/// Prints `ready <base URL>` once it listens, then answers one line per command line on stdin:
/// `change <count> <cycle>` → adds a post to `count` random bookmarked threads and clears the request log, `ok`;
/// `requests` → the number of requests logged since; `usage` → `<CPU seconds> <peak RSS MiB>` of this process.
/// Exits when stdin closes.
struct PollForumCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "poll-forum", abstract: "The emulator side of `poll` (started by it).", shouldDisplay: false)

  @Option var bookmarks: Int
  @Option var postsPerThread: Int
  @Option var pageNav: String = PageNavStyle.new.rawValue

  func run() async throws {
    guard let navigation = PageNavStyle(rawValue: pageNav) else { throw ValidationError("unknown page nav \(pageNav)") }
    let server = try await FakeForumServer(
      configuration: FakeForumConfiguration(port: 0, seed: .empty, pageNav: navigation, requestLogLimit: 1_000_000))
    let baseURL = try await server.start()
    let state = server.state
    let poster = try await state.addUser(name: "Bench Poster", password: "bench")
    let group = try await state.addGroup(title: "Main")
    let forumID = try await state.addForum(title: "Benchmarks", parent: group)
    let threadIDs = try await state.addGeneratedThreads(
      count: bookmarks, forum: forumID, author: poster, postsPerThread: postsPerThread,
      bookmarkedBy: FakeForumSeed.botUserID)
    PollForumCommand.reply("ready \(baseURL.absoluteString)")

    var generator = SystemRandomNumberGenerator()
    for await line in LineReader.standardInput() {
      let words = line.split(separator: " ")
      switch words.first {
      case "change":
        let count = words.count > 1 ? Int(words[1]) ?? 0 : 0
        let cycle = words.count > 2 ? String(words[2]) : "?"
        for thread in threadIDs.shuffled(using: &generator).prefix(count) {
          try await state.addPost(thread: thread, author: poster, body: "Benchmark post in cycle \(cycle).")
        }
        await state.clearRequests()
        PollForumCommand.reply("ok")
      case "requests":
        PollForumCommand.reply("\(await state.requests().count)")
      case "usage":
        let usage = ProcessUsage.now()
        PollForumCommand.reply("\(usage.cpuSeconds) \(usage.peakResidentMiB)")
      default:
        PollForumCommand.reply("error unknown command \(line)")
      }
    }
    await server.stop()
  }

  private static func reply(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// Lines from a file handle as an async sequence, read on a thread of their own so a blocking read never holds one
/// of the few threads Swift concurrency runs tasks on.
enum LineReader {
  static func standardInput() -> AsyncStream<String> {
    lines(from: FileHandle.standardInput)
  }

  static func lines(from handle: FileHandle) -> AsyncStream<String> {
    AsyncStream { continuation in
      let thread = Thread {
        var pending = Data()
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          pending.append(chunk)
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
          }
        }
        continuation.finish()
      }
      thread.start()
    }
  }
}
