import Foundation
import GRDB

/// One message to deliver to one room. Rows are only ever marked, never deleted, so nothing disappears silently.
package struct OutboxRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "outbox"

  package var id: Int64?
  package var transport: String
  package var room: String
  package var kind: OutboxKind
  /// The message as JSON (ChatBridge's `OutgoingMessage`, a typed message rendered by the transport at send time).
  package var payload: String
  /// Stable per (transport, room, post id) or per announcement hash / summary range, so requeueing is a no-op and
  /// a resend after a crash carries the same key.
  package var idempotencyKey: String
  package var createdAt: Date
  package var attempts: Int
  package var nextAttemptAt: Date?
  package var state: OutboxState
  package var deliveredAt: Date?
  package var receipt: String?
  package var lastError: String?
  package var deadLetteredAt: Date?
  package var threadID: String?
  package var postID: String?
  /// Why the row exists (the subscription that matched), for `why`.
  package var reason: String?
  /// The short reference the relay carries (`r7`) where readers answer it by reference (IRC, the console).
  package var reference: String?
  /// Since when the row is in the dispatcher's hands (committed before its send, cleared with its outcome). Still
  /// set at the next start, it means the process died with the row in hand.
  package var inFlightSince: Date? = nil
  /// How many times the process died with this row in flight; at `OutboxRecord.crashLimit` it is parked.
  package var crashes: Int = 0

  /// Deaths in flight after which a row is parked instead of sent again.
  package static let crashLimit = 2
  /// What a parked row's `lastError` says.
  package static let parkedReason = "not sent: it stopped the bot twice"

  package init(
    id: Int64? = nil, transport: String, room: String, kind: OutboxKind, payload: String, idempotencyKey: String,
    createdAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, state: OutboxState = .pending,
    deliveredAt: Date? = nil, receipt: String? = nil, lastError: String? = nil, deadLetteredAt: Date? = nil,
    threadID: String? = nil, postID: String? = nil, reason: String? = nil, reference: String? = nil
  ) {
    self.reference = reference
    self.id = id
    self.transport = transport
    self.room = room
    self.kind = kind
    self.payload = payload
    self.idempotencyKey = idempotencyKey
    self.createdAt = createdAt
    self.attempts = attempts
    self.nextAttemptAt = nextAttemptAt
    self.state = state
    self.deliveredAt = deliveredAt
    self.receipt = receipt
    self.lastError = lastError
    self.deadLetteredAt = deadLetteredAt
    self.threadID = threadID
    self.postID = postID
    self.reason = reason
  }

  package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
