import BotCore
import BotStore
import ChatBridge
import Foundation

/// `awfulbot restore`: puts a backup in place of the database while the bot is stopped, keeping the database it
/// replaces aside.
package enum BackupRestore {
  package struct Outcome: Sendable, Hashable {
    package var databasePath: String
    /// Where the replaced database went (`awfulbot.sqlite.before-restore-<time>`); nil when there was none.
    package var keptAside: String?
    /// Migrations the backup has not run, which the next `run` (or `migrate`) applies.
    package var pendingMigrations: [String]
    /// Messages the replaced database had sent (or given up on) since the backup, carried over so none goes out
    /// twice.
    package var carriedOver = 0
    /// Why nothing could be carried over, when nothing could.
    package var carryOverProblem: String?
  }

  /// Checks `backup` (an awfulbot database, whole, of a schema this version knows), refuses while the daemon runs on
  /// `databasePath` (its heartbeat there says so), then puts a copy of the backup in place. `force` goes on when the
  /// current database cannot be read at all (damaged: the reason to restore); `knownMigrations` is this build's.
  package static func restore(
    backup: String, databasePath: String, force: Bool = false,
    knownMigrations: [String] = DatabaseFile.knownMigrations, now: Date = Date()
  ) throws -> Outcome {
    let manager = FileManager.default
    if manager.fileExists(atPath: databasePath),
      URL(fileURLWithPath: backup).resolvingSymlinksInPath()
        == URL(fileURLWithPath: databasePath)
        .resolvingSymlinksInPath()
    {
      throw DatabaseBackupError.sameFile(path: backup)
    }
    let inspection = try DatabaseFile.inspect(path: backup)
    let unknown = inspection.appliedMigrations.subtracting(knownMigrations).sorted()
    if !unknown.isEmpty { throw DatabaseBackupError.newerSchema(path: backup, unknown: unknown) }
    // Held while the database is swapped, so a `run` starting meanwhile waits for none of it: it is refused.
    let lock: DatabaseLock
    do {
      lock = try DatabaseLock.acquire(databasePath: databasePath)
    } catch DatabaseLockError.held(_, let pid) {
      throw DatabaseBackupError.locked(pid: pid)
    }
    defer { withExtendedLifetime(lock) {} }
    if manager.fileExists(atPath: databasePath) {
      try refuseWhileRunning(databasePath: databasePath, force: force, now: now)
    }

    // The copy is made beside the database first, so the database is replaced only once a whole copy exists, and
    // by a rename on the same file system. The online backup (rather than a file copy) also takes in a WAL the
    // backup file may have beside it.
    let stamp = DatabaseBackup.fileName(at: now).dropFirst(DatabaseBackup.prefix.count).dropLast(
      DatabaseBackup.suffix.count)
    let incoming = "\(databasePath).restoring-\(stamp)"
    _ = try OnlineBackup.copy(databaseAt: backup, to: incoming)
    do {
      try markDaemonStopped(databasePath: incoming)
      try markTransportsRestored(databasePath: incoming, at: now)
      var carried = (count: 0, problem: String?.none)
      if manager.fileExists(atPath: databasePath) {
        carried = carryOver(
          from: databasePath, into: incoming,
          sameSchema: inspection.appliedMigrations == Set(knownMigrations))
      }
      var aside: String?
      if manager.fileExists(atPath: databasePath) {
        let target = "\(databasePath).before-restore-\(stamp)"
        try keepAside(databasePath: databasePath, at: target)
        aside = target
      }
      try manager.moveItem(atPath: incoming, toPath: databasePath)
      return Outcome(
        databasePath: databasePath, keptAside: aside,
        pendingMigrations: knownMigrations.filter { !inspection.appliedMigrations.contains($0) },
        carriedOver: carried.count, carryOverProblem: carried.problem)
    } catch {
      try? manager.removeItem(atPath: incoming)
      throw error
    }
  }

  /// With the lock free, no awfulbot of this version or later runs on the database. One from before the lock may:
  /// Marks every transport's state as restored (`TransportStateMarker.restoredFromBackup`): a transport that keeps a
  /// position or ratchets with its chat service starts over from them at its next start.
  private static func markTransportsRestored(databasePath: String, at now: Date) throws {
    try DatabaseFile.amend(path: databasePath) { tx in
      for transport in try tx.transportsWithState() {
        try tx.setTransportState(
          now.formatted(.iso8601), transport: transport, key: TransportStateMarker.restoredFromBackup, now: now)
      }
    }
  }

  /// The outcomes of the replaced database's messages, into the restored copy (see
  /// `StoreTransaction.carryOverOutcomes`). A replaced database that cannot be read (damaged: the reason for many a
  /// restore) or a backup of an older schema carries nothing; the restore goes on and says so.
  private static func carryOver(from current: String, into incoming: String, sameSchema: Bool) -> (Int, String?) {
    guard sameSchema else {
      return (0, "the backup's schema is older than this version's, so its outbox cannot take the replaced one's")
    }
    do {
      let replaced = try ReadOnlyDatabase(path: current)
      defer { try? replaced.close() }
      let (rows, posted) = try replaced.read { tx in
        (try tx.allOutboxRows(), try tx.allPostedFromChat())
      }
      var count = 0
      try DatabaseFile.amend(path: incoming) { tx in
        count = try tx.carryOverOutcomes(of: rows)
        _ = try tx.carryOver(postedFromChat: posted)
      }
      return (count, nil)
    } catch {
      return (0, "the replaced database could not be read (\(error))")
    }
  }

  /// `status`'s reading of the heartbeat decides, and a heartbeat whose process is gone (killed a moment ago) does
  /// not count.
  private static func refuseWhileRunning(databasePath: String, force: Bool, now: Date) throws {
    let report: StatusReport
    do {
      report = try StatusReport.read(databasePath: databasePath, now: now)
    } catch {
      if force { return }
      throw DatabaseBackupError.cannotTellIfRunning(path: databasePath, detail: "\(error)")
    }
    if let daemon = report.daemon, daemon.isRunning, kill(pid_t(daemon.pid), 0) == 0 {
      throw DatabaseBackupError.running(pid: daemon.pid, lastSeen: daemon.lastSeen.formatted(.iso8601))
    }
  }

  /// The backup was taken from a running daemon, so its heartbeat says "running": left so, `status` would show a
  /// daemon that is not there and a second restore could be refused. The record is closed at its last beat.
  private static func markDaemonStopped(databasePath: String) throws {
    try DatabaseFile.amend(path: databasePath) { tx in
      guard var daemon = try tx.daemonHeartbeat(), daemon.stoppedAt == nil else { return }
      daemon.stoppedAt = daemon.lastSeen
      try tx.save(daemon)
    }
  }

  /// Moves the database and its journal files aside as they are (a damaged database too, for a look later): SQLite
  /// opens the moved file with the moved WAL, and a WAL left behind would be replayed into the restored database.
  /// The shared-memory index is rebuilt from the WAL, so it is removed, never reused.
  private static func keepAside(databasePath: String, at target: String) throws {
    let manager = FileManager.default
    try manager.moveItem(atPath: databasePath, toPath: target)
    for suffix in ["-wal", "-journal"] where manager.fileExists(atPath: databasePath + suffix) {
      try manager.moveItem(atPath: databasePath + suffix, toPath: target + suffix)
    }
    try? manager.removeItem(atPath: databasePath + "-shm")
  }
}
