import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation

extension IRCTestEnvironment {
  /// InspIRCd stops, stays down `seconds`, starts again; returns when it accepts connections. The scripts' watcher
  /// does the restart (spawning a process from a Swift task can hang on Linux).
  func restartServer(downFor seconds: Double) async throws {
    let name = UUID().uuidString
    let directory = URL(fileURLWithPath: controlDirectory)
    let request = directory.appendingPathComponent(name + ".restart")
    let done = directory.appendingPathComponent(name + ".done")
    try Data(String(seconds).utf8).write(to: request.deletingPathExtension().appendingPathExtension("tmp"))
    try FileManager.default.moveItem(at: request.deletingPathExtension().appendingPathExtension("tmp"), to: request)
    let deadline = ContinuousClock.now + .seconds(30)
    while !FileManager.default.fileExists(atPath: done.path) {
      if ContinuousClock.now > deadline { throw TestClientError.timedOut("the server restart", nick: "-", seen: []) }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
