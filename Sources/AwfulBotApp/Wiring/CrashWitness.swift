import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tells the next start whether this process crashed, for the outbox's poison-message guard (BotCore's
/// `CrashGuard`): a row in hand when the bot died counts a death only when the bot died of a bug (a trap, an abort,
/// a bad access), never when it was stopped from outside (SIGKILL, the OOM killer, a power cut), so an operator who
/// kills the bot twice while a message is in flight does not get that message parked.
///
/// `arm` reads and empties the witness file beside the database (`awfulbot.sqlite.crashed`), then installs handlers
/// for the signals a crash raises. A handler writes one line to the file (a `write` on a descriptor opened now: safe
/// in a signal handler), puts back the handler that was there before (Swift's backtracer) and lets the signal go
/// on, so the crash report and the exit are as before. SIGKILL cannot be caught, which is the point: it leaves the
/// file empty.
enum CrashWitness {
  static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  /// Whether the process before this one crashed. Call once, from `awfulbot run`, with the database lock held. When
  /// the witness cannot be kept (the file cannot be opened), every death counts, as if it had crashed.
  static func arm(databasePath: String) -> Bool {
    let path = databasePath + ".crashed"
    let crashed: Bool
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber {
      crashed = size.intValue > 0
    } else {
      crashed = false
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return true }
    witnessDescriptor = descriptor
    for signal in signals {
      var action = sigaction()
      action.__sigaction_handler = .init(sa_handler: recordCrash)
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      _ = sigaction(signal, &action, previousActions + Int(signal))
    }
    return crashed
  }
}

/// The witness file's descriptor, set once by `arm` before any handler can run.
nonisolated(unsafe) private var witnessDescriptor: Int32 = -1
/// The handlers that were there before `arm`, by signal number; plain memory, no reference counting in a handler.
nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// The signal handler: async-signal-safe calls only.
private func recordCrash(_ signal: Int32) {
  let line: StaticString = "crashed\n"
  _ = write(witnessDescriptor, line.utf8Start, line.utf8CodeUnitCount)
  _ = sigaction(signal, previousActions + Int(signal), nil)
  // A fault (SIGILL, SIGSEGV, SIGBUS, SIGFPE) happens again at once when the handler returns, now to the handler
  // before (with its full context); SIGABRT and SIGTRAP are sent again.
  if signal == SIGABRT || signal == SIGTRAP { _ = raise(signal) }
}
