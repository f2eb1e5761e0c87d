import ArgumentParser
import Foundation

/// The bench's own `poll-forum` subcommand running as a child process, driven over its stdin and stdout.
final class PollForumProcess {
  let baseURL: URL
  private let process: Process
  private let input: FileHandle
  private var lines: AsyncStream<String>.Iterator

  /// Starts the emulator with `bookmarks` bookmarked threads and waits until it listens.
  init(bookmarks: Int, postsPerThread: Int, pageNav: String) async throws {
    let process = Process()
    // This very executable: `/proc/self/exe` does not depend on how the bench was started.
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = [
      "poll-forum", "--bookmarks", String(bookmarks), "--posts-per-thread", String(postsPerThread), "--page-nav",
      pageNav,
    ]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    self.process = process
    input = stdin.fileHandleForWriting
    lines = LineReader.lines(from: stdout.fileHandleForReading).makeAsyncIterator()
    guard let ready = await lines.next(), ready.hasPrefix("ready "),
      let url = URL(string: String(ready.dropFirst("ready ".count)))
    else {
      process.terminate()
      throw ValidationError("the emulator process did not start")
    }
    baseURL = url
  }

  /// Sends one command line and returns the answer line.
  func send(_ command: String) async throws -> String {
    try input.write(contentsOf: Data((command + "\n").utf8))
    guard let answer = await lines.next() else { throw ValidationError("the emulator process exited") }
    if answer.hasPrefix("error") { throw ValidationError("emulator: \(answer)") }
    return answer
  }

  /// Adds a post to `count` random bookmarked threads and clears the request log.
  func change(_ count: Int, cycle: Int) async throws {
    _ = try await send("change \(count) \(cycle)")
  }

  /// Requests the emulator served since the last `change`.
  func requestCount() async throws -> Int {
    Int(try await send("requests")) ?? 0
  }

  /// The emulator process's CPU time and peak memory so far.
  func usage() async throws -> ProcessUsage {
    let parts = try await send("usage").split(separator: " ").compactMap { Double($0) }
    guard parts.count == 2 else { throw ValidationError("bad usage answer from the emulator") }
    return ProcessUsage(cpuSeconds: parts[0], peakResidentMiB: parts[1])
  }

  /// Closes the emulator's stdin, which ends it, and waits for it.
  func stop() {
    try? input.close()
    process.waitUntilExit()
  }
}
