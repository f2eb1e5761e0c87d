import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The `backup` section at work inside `run`: an online copy of the database every `interval` into `directory`,
/// named with the time (`DatabaseBackup.fileName`), mode 0600, keeping the newest `keep` of the files so named there.
///
/// The copy runs on a thread of its own (it blocks, and can take a while on a big database), in steps with a short
/// pause between them so its disk I/O comes in bursts the bot's writes get between; the daemon's writes are never
/// waiting on it (see `OnlineBackup`). A shutdown abandons a copy in progress: its partial file is removed and the
/// next start makes the backup that is due.
package struct BackupService: Service {
  package let databasePath: String
  package let directory: URL
  package let interval: Duration
  package let keep: Int
  /// The wait after start before a backup that is already due: the first poll and the transports' logins come first.
  let firstDelay: Duration
  let pagesPerStep: Int32
  let pauseBetweenSteps: Duration
  let logger: Logger
  let now: @Sendable () -> Date

  package init(
    databasePath: String, directory: URL, interval: Duration, keep: Int, firstDelay: Duration = .seconds(60),
    pagesPerStep: Int32 = 1024, pauseBetweenSteps: Duration = .milliseconds(10),
    logger: Logger = Logger(label: "awfulbot.backup"), now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.databasePath = databasePath
    self.directory = directory
    self.interval = interval
    self.keep = keep
    self.firstDelay = firstDelay
    self.pagesPerStep = pagesPerStep
    self.pauseBetweenSteps = pauseBetweenSteps
    self.logger = logger
    self.now = now
  }

  /// The service for a configuration's `backup` section; a relative directory is under the database's directory.
  package init(databasePath: String, settings: BackupSettings, logger: Logger = Logger(label: "awfulbot.backup")) {
    let dataDirectory = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
    self.init(
      databasePath: databasePath, directory: settings.directoryURL(dataDirectory: dataDirectory),
      interval: settings.interval, keep: settings.keepCount, logger: logger)
  }

  package func run() async throws {
    var wait = firstWait()
    while !Task.isShuttingDownGracefully && !Task.isCancelled {
      let pause = wait
      do {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
      } catch {
        return
      }
      if Task.isShuttingDownGracefully || Task.isCancelled { return }
      await backUpNow()
      wait = interval
    }
  }

  /// A bot restarted more often than `interval` still backs up: the newest backup in the directory sets when the
  /// next is due.
  package func firstWait() -> Duration {
    guard let newest = backups().first?.date else { return firstDelay }
    let due = Duration.seconds(newest.timeIntervalSince(now())) + interval
    return max(firstDelay, due)
  }

  /// Makes one backup and removes those beyond `keep`; logs one line either way. Returns the backup made.
  @discardableResult
  package func backUpNow() async -> DatabaseBackup.Outcome? {
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let outcome = try await cancelWhenGracefulShutdown { try await copy() }
      let removed = prune()
      logger.info(
        "database backed up",
        metadata: [
          "file": "\(outcome.path)", "bytes": "\(outcome.bytes)",
          "seconds": "\(String(format: "%.2f", outcome.seconds))",
          "removed": "\(removed)", "keep": "\(keep)",
        ])
      return outcome
    } catch is CancellationError {
      logger.notice("database backup abandoned at shutdown", metadata: ["directory": "\(directory.path)"])
      return nil
    } catch {
      logger.error("database backup failed", metadata: ["directory": "\(directory.path)", "error": "\(error)"])
      return nil
    }
  }

  /// The copy on a thread of its own; cancelling the task stops it between two steps.
  private func copy() async throws -> DatabaseBackup.Outcome {
    let stop = StopFlag()
    let (path, destination, date) = (databasePath, directory.path, now())
    let pages = pagesPerStep
    let pause = Double(pauseBetweenSteps.components.seconds) + Double(pauseBetweenSteps.components.attoseconds) / 1e18
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .utility).async {
          continuation.resume(
            with: Result {
              try DatabaseBackup.backup(databasePath: path, to: destination, now: date, pagesPerStep: pages) { _, _ in
                if stop.isSet { throw CancellationError() }
                Thread.sleep(forTimeInterval: pause)
              }
            })
        }
      }
    } onCancel: {
      stop.set()
    }
  }

  /// The backups in the directory, newest first: only files named as `DatabaseBackup.fileName` makes them, so
  /// nothing else there is ever removed.
  func backups() -> [(name: String, date: Date)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.compactMap { name in DatabaseBackup.date(fromFileName: name).map { (name, $0) } }
      .sorted { $0.date > $1.date }
  }

  /// Removes the backups beyond the newest `keep`, and partial copies a crash left a day ago or more (a younger one
  /// may be an `awfulbot backup` writing into the same directory). Returns how many backups went.
  private func prune() -> Int {
    let manager = FileManager.default
    var removed = 0
    for backup in backups().dropFirst(keep) {
      if (try? manager.removeItem(at: directory.appendingPathComponent(backup.name))) != nil { removed += 1 }
    }
    let partialSuffix = ".partial"
    for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasSuffix(partialSuffix) {
      let path = directory.appendingPathComponent(name).path
      guard DatabaseBackup.date(fromFileName: String(name.dropLast(partialSuffix.count))) != nil,
        let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
        now().timeIntervalSince(modified) > 86400
      else { continue }
      try? manager.removeItem(atPath: path)
    }
    return removed
  }
}

/// Set from the task's cancellation handler, read by the copy's thread between steps.
private final class StopFlag: Sendable {
  private let flag = Mutex(false)
  var isSet: Bool { flag.withLock { $0 } }
  func set() { flag.withLock { $0 = true } }
}
