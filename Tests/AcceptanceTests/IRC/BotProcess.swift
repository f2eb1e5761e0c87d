import AwfulBotTestKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `awfulbot` executable run as a child process, for what only a real process shows (SIGKILL). Started with
/// `posix_spawn` and reaped with `waitpid`, not Foundation's `Process`, whose Linux implementation can hang when
/// used from Swift concurrency. Used from one test task only.
final class BotProcess {
  enum Ending: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signalled(let signal): "ended by signal \(signal)"
      }
    }
  }

  let pid: pid_t
  private(set) var ending: Ending?

  private init(pid: pid_t) { self.pid = pid }

  /// `awfulbot` built next to the test bundle (`swift build --build-tests` builds every product), or
  /// `$AWFULBOT_BINARY`.
  static var binary: String? {
    if let path = ProcessInfo.processInfo.environment["AWFULBOT_BINARY"], !path.isEmpty { return path }
    let candidates = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }
    for candidate in candidates {
      var directory = URL(fileURLWithPath: candidate).deletingLastPathComponent()
      // On macOS the test binary sits inside the .xctest bundle's Contents/MacOS.
      for _ in 0..<4 {
        let path = directory.appendingPathComponent("awfulbot").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        directory.deleteLastPathComponent()
      }
    }
    return nil
  }

  /// Starts `path` with `arguments` and exactly `environment`; standard input is /dev/null, standard output and
  /// error are appended to `output`.
  static func spawn(_ path: String, _ arguments: [String], environment: [String: String], output: String) throws
    -> BotProcess
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A normal signal mask and default handlers in the child, whatever the test runner's threads have.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid = pid_t()
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else { throw CocoaError(.executableLoad, userInfo: ["errno": result]) }
    return BotProcess(pid: pid)
  }

  /// Sends `signal`, unless the process has been reaped already (its pid may belong to another process by then).
  func kill(_ signal: Int32) {
    guard ending == nil else { return }
    _ = Foundation.kill(pid, signal)
  }

  /// Waits up to `timeout` for the process to end and reaps it; nil when it is still running. It polls with
  /// `Task.sleep`, never a blocking sleep: the cooperative pool has one thread per core, and a test parked in
  /// `usleep` there stalls every other test of the run (an IRC readiness test once missed a dropped connection for
  /// 10 s while two of these waited).
  func reap(timeout: Duration = .seconds(10)) async -> Ending? {
    let ending = try? await readUntil(timeout: timeout) {
      poll()
    } until: {
      $0 != nil || reapFailed
    }
    return ending ?? nil
  }

  /// SIGKILL, then waits for the process to go, for clean-ups that cannot suspend (`defer`): a killed process
  /// ends at once, so this blocking wait is short.
  func killAndReap() {
    guard ending == nil else { return }
    _ = Foundation.kill(pid, SIGKILL)
    var status: Int32 = 0
    if waitpid(pid, &status, 0) == pid { ending = Self.ending(status) }
  }

  /// Reaps the process if it has ended, without waiting.
  private func poll() -> Ending? {
    if let ending { return ending }
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == pid {
      ending = Self.ending(status)
    } else if result < 0 {
      reapFailed = true
    }
    return ending
  }

  private var reapFailed = false

  /// WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
  private static func ending(_ status: Int32) -> Ending {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
  }
}
