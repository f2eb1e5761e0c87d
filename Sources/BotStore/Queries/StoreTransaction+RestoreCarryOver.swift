import Foundation
import GRDB

/// What a restore keeps of the database it replaces: a backup's outbox is older than what the chat services have
/// seen. A row pending in the backup that was delivered since, or a post relayed since whose row the backup does not
/// have, would otherwise go out a second time (IRC and the console cannot tell; a Matrix homeserver forgets
/// transaction ids after a while). The outcomes of the replaced database's rows carry over, matched by idempotency
/// key, so each is sent once.
extension StoreTransaction {
  /// Carries over every row of `replaced` that is no longer pending: a pending row of the same key takes its outcome,
  /// a missing one is added as it was. Returns how many rows changed.
  package func carryOverOutcomes(of replaced: [OutboxRecord]) throws -> Int {
    var changed = 0
    for row in replaced where row.state != .pending {
      if let existing = try outboxRow(idempotencyKey: row.idempotencyKey) {
        guard existing.state == .pending else { continue }
        var updated = existing
        updated.state = row.state
        updated.attempts = max(existing.attempts, row.attempts)
        updated.deliveredAt = row.deliveredAt
        updated.receipt = row.receipt
        updated.lastError = row.lastError
        updated.deadLetteredAt = row.deadLetteredAt
        updated.crashes = max(existing.crashes, row.crashes)
        updated.nextAttemptAt = nil
        try updated.update(db)
        changed += 1
      } else {
        var added = row
        if try enqueue(&added) { changed += 1 }
      }
    }
    return changed
  }

}
