import BotStore
import Foundation
import Logging
import Synchronization

/// The outbox's poison-message guard (issue 43), shared by an engine's dispatchers. Nothing a row holds may stop the
/// bot at every start, whatever the bug it reaches (a picture header that overflows, a renderer that traps):
/// - a row is marked in flight, committed, before a transport sees it (`RoomSendQueue`), and its outcome clears the
///   mark; a send cancelled by shutdown clears it too, and so does one that hangs until shutdown cancels it;
/// - before the first send of a process, every row still marked died with the last one and counts a death
///   (`recoverInterruptedSends`); at the second it is parked ("not sent: it stopped the bot twice") and its room's
///   queue goes on;
/// - a row that died once goes out alone (`SendGate`), so the second death is its own and the row beside it, in flight
///   by chance, is never parked.
final class CrashGuard: Sendable {
  private let database: BotDatabase
  private let now: @Sendable () -> Date
  let gate = SendGate()
  /// The recovery of this process, run once before any dispatcher sends; nil until asked, or after it failed.
  private let recovery = Mutex<Task<Bool, Never>?>(nil)

  /// Whether the last process crashed (see `EngineConfiguration.previousRunCrashed`): only then do the rows it had
  /// in hand count a death.
  private let previousRunCrashed: Bool

  init(database: BotDatabase, now: @escaping @Sendable () -> Date, previousRunCrashed: Bool = true) {
    self.database = database
    self.now = now
    self.previousRunCrashed = previousRunCrashed
  }

  /// Counts the deaths of the rows the last process left in flight, once per process; true when that is done and
  /// rows may be sent. A failed read or write is tried again at the next call: until it succeeds nothing is sent.
  /// `logger` (the first caller's) tells what was found.
  func recovered(logger: Logger) async -> Bool {
    let task = recovery.withLock { current in
      if let current { return current }
      let task = Task { await self.recover(logger: logger) }
      current = task
      return task
    }
    let done = await task.value
    if !done { recovery.withLock { if $0 == task { $0 = nil } } }
    return done
  }

  private func recover(logger: Logger) async -> Bool {
    let date = now()
    let found: InterruptedSends
    do {
      let crashed = previousRunCrashed
      found = try await database.write { tx in try tx.recoverInterruptedSends(at: date, countingDeaths: crashed) }
    } catch {
      logger.log(
        level: BotStoreError.isStorageFull(error) ? .debug : .error,
        "could not check the outbox for messages in flight when the bot stopped", metadata: ["error": "\(error)"])
      return false
    }
    if !found.resent.isEmpty {
      logger.info(
        "messages in hand when the bot was stopped from outside go out again; no crash is counted",
        metadata: ["rows": "\(found.resent.compactMap(\.id).map(String.init).joined(separator: ","))"])
    }
    for row in found.suspects {
      logger.warning(
        "a message was in flight when the bot stopped; it goes out again alone",
        metadata: Self.metadata(row))
    }
    for row in found.parked {
      EngineMetrics.delivery(transport: row.transport, outcome: "parked")
      logger.error(
        "message parked: it was in flight each time the bot stopped, twice; the rest of its room's queue goes on",
        metadata: Self.metadata(row))
    }
    return true
  }

  private static func metadata(_ row: OutboxRecord) -> Logger.Metadata {
    [
      "transport": "\(row.transport)", "room": "\(row.room)", "row": "\(row.id ?? 0)", "kind": "\(row.kind.rawValue)",
      "crashes": "\(row.crashes)",
    ]
  }
}
