import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process of the soak (`awfulbot fake-forum`, `awfulbot run`) with its output in files of the work folder,
/// so what is measured is that process alone and its logs survive the run for a post-mortem.
final class SoakChild: @unchecked Sendable {
  // @unchecked: `Process` is not Sendable; this wrapper only starts it once and then reads its pid and status,
  // which Foundation guards itself.
  let name: String
  private let process = Process()

  init(
    name: String, executable: String, arguments: [String], environment: [String: String], stdout: URL, stderr: URL
  ) throws {
    self.name = name
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
    if stderr != stdout { _ = FileManager.default.createFile(atPath: stderr.path, contents: nil) }
    let out = try FileHandle(forWritingTo: stdout)
    process.standardOutput = out
    process.standardError = stderr == stdout ? out : try FileHandle(forWritingTo: stderr)
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }
  var isRunning: Bool { process.isRunning }
  var exitStatus: Int32 { process.terminationStatus }

  /// SIGTERM, then SIGKILL when it has not ended within `grace` seconds; returns its exit status (nil when killed).
  @discardableResult
  func stop(grace: Double = 30) async -> Int32? {
    guard process.isRunning else { return process.terminationStatus }
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(grace)
    while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(100)) }
    if process.isRunning {
      kill(pid, SIGKILL)
      while process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
      return nil
    }
    return process.terminationStatus
  }
}
