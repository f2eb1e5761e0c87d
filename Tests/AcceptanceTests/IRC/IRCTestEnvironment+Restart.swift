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
    guard
      try await eventually(
        timeout: .seconds(30), every: .milliseconds(50),
        {
          FileManager.default.fileExists(atPath: done.path)
        })
    else { throw TestClientError.timedOut("the server restart", nick: "-", seen: []) }
  }
}
