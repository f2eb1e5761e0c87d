import Foundation
import GRDB

/// What `recoverInterruptedSends` found at start: the rows the last process died with in hand.
package struct InterruptedSends: Sendable, Hashable {
  /// Rows counted a death and left pending, to be sent again (alone, see the dispatcher's `SendGate`).
  package var suspects: [OutboxRecord] = []
  /// Rows that reached `OutboxRecord.crashLimit` deaths and are parked now.
  package var parked: [OutboxRecord] = []
  /// Rows in hand when the last process was stopped from outside (no crash): marks cleared, no death counted.
  package var resent: [OutboxRecord] = []
  package init() {}
}

/// The outbox's poison-message guard (issue 43): a row is marked in flight, committed, before the bot hands it to a
/// chat service, and its outcome clears the mark. A mark still there at the next start means the process died with
/// the row in hand; after `OutboxRecord.crashLimit` such deaths the row is parked instead of sent again, so no
/// message can stop the bot at every start, whatever the bug it hits.
extension StoreTransaction {
  /// Marks pending rows in flight at `date`; returns how many were marked.
  @discardableResult
  package func markInFlight(ids: [Int64], at date: Date) throws -> Int {
    guard !ids.isEmpty else { return 0 }
    try db.execute(
      sql: "UPDATE outbox SET inFlightSince = ? WHERE state = 'pending' AND id IN \(placeholders(ids.count))",
      arguments: StatementArguments([date] + ids))
    return db.changesCount
  }

  /// Clears the in-flight mark of rows whose send ended without an outcome to record (cancelled by shutdown, or
  /// prepared but not sent): that is not a death.
  package func clearInFlight(ids: [Int64]) throws {
    guard !ids.isEmpty else { return }
    try db.execute(
      sql: "UPDATE outbox SET inFlightSince = NULL WHERE id IN \(placeholders(ids.count))",
      arguments: StatementArguments(ids))
  }

  /// Rows marked in flight now, oldest first.
  package func rowsInFlight() throws -> [OutboxRecord] {
    try OutboxRecord.filter(Column("inFlightSince") != nil).order(Column("id")).fetchAll(db)
  }

  /// Called once at start, before anything is sent: every row still marked in flight died with the last process.
  /// Each counts a death and loses its mark; one that reaches `OutboxRecord.crashLimit` is parked with
  /// `OutboxRecord.parkedReason`, and its room's queue goes on without it.
  ///
  /// - Parameter countingDeaths: false when the last process is known not to have crashed (stopped from outside by
  ///   SIGKILL, the OOM killer or a power cut, see the app's `CrashWitness`): the marks are cleared and the rows sent
  ///   again as they are, since no bug stopped the bot there. An innocent row must not be parked because an operator
  ///   killed the bot twice while it was in hand.
  package func recoverInterruptedSends(at date: Date, countingDeaths: Bool = true) throws -> InterruptedSends {
    var found = InterruptedSends()
    for var row in try rowsInFlight() {
      row.inFlightSince = nil
      if row.state == .pending, !countingDeaths {
        found.resent.append(row)
      } else if row.state == .pending {
        row.crashes += 1
        if row.crashes >= OutboxRecord.crashLimit {
          row.state = .parked
          row.lastError = OutboxRecord.parkedReason
          row.deadLetteredAt = date
          found.parked.append(row)
        } else {
          found.suspects.append(row)
        }
      }
      try row.update(db)
    }
    return found
  }

  /// Parked rows, newest first; of one room when `transport` and `room` are given.
  package func parkedRows(transport: String? = nil, room: String? = nil, limit: Int) throws -> [OutboxRecord] {
    var request = OutboxRecord.filter(Column("state") == OutboxState.parked.rawValue)
    if let transport { request = request.filter(Column("transport") == transport) }
    if let room { request = request.filter(Column("room") == room) }
    return try request.order(Column("id").desc).limit(limit).fetchAll(db)
  }

  private func placeholders(_ count: Int) -> String {
    "(" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
  }
}
