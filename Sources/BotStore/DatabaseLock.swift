import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The lock `awfulbot run` holds on its database for as long as it runs: an exclusive `flock` on a file beside the
/// database (`awfulbot.sqlite.lock`), which the kernel drops when the process ends however it ends. A heartbeat can
/// be stale while the daemon lives (hung) and fresh while it is dead (killed a moment ago); the lock cannot. The
/// holder's pid is written in the file, for messages.
package final class DatabaseLock: Sendable {
  private let descriptor: Int32
  package let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// The lock file of the database at `databasePath`.
  package static func path(forDatabase databasePath: String) -> String { databasePath + ".lock" }

  /// Takes the lock of the database at `databasePath`, or throws `DatabaseLockError.held` naming the process that
  /// has it. Kept until this value is released.
  package static func acquire(databasePath: String) throws -> DatabaseLock {
    let path = path(forDatabase: databasePath)
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw DatabaseLockError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let busy = errno == EWOULDBLOCK
      let reason = String(cString: strerror(errno))
      let holder = Self.pid(in: descriptor)
      close(descriptor)
      if busy { throw DatabaseLockError.held(databasePath: databasePath, pid: holder) }
      throw DatabaseLockError.cannotOpen(path: path, reason: reason)
    }
    let pid = "\(getpid())\n"
    _ = ftruncate(descriptor, 0)
    _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    return DatabaseLock(descriptor: descriptor, path: path)
  }

  /// The pid of the process holding the database's lock, or nil when nobody holds it (no file, or a file whose lock
  /// is free). Takes the lock for a moment to find out.
  package static func holder(databasePath: String) throws -> Int32?? {
    guard FileManager.default.fileExists(atPath: path(forDatabase: databasePath)) else { return .none }
    do {
      _ = try acquire(databasePath: databasePath)
      return .none
    } catch DatabaseLockError.held(_, let pid) {
      return .some(pid)
    }
  }

  private static func pid(in descriptor: Int32) -> Int32? {
    var buffer = [CChar](repeating: 0, count: 32)
    let count = pread(descriptor, &buffer, 31, 0)
    guard count > 0 else { return nil }
    let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// Why the database's lock could not be taken.
package enum DatabaseLockError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Another process holds it: an awfulbot runs on this database (`pid` when the file names it).
  case held(databasePath: String, pid: Int32?)
  case cannotOpen(path: String, reason: String)

  package var description: String {
    switch self {
    case .held(let databasePath, let pid):
      "Another awfulbot\(pid.map { " (pid \($0))" } ?? "") runs on \(databasePath): it holds the database's lock. "
        + "Stop it first (systemctl stop awfulbot)."
    case .cannotOpen(let path, let reason):
      "Cannot open the database's lock file \(path): \(reason)."
    }
  }
}
