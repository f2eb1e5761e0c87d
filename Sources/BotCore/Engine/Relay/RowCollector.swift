import BotStore
import Foundation
import Synchronization

/// Collects the rows one poll relays from several threads, then queues them in the order their posts were made
/// (oldest first, across threads), so a room reads a conversation spread over threads as it happened rather than
/// thread by thread. Used inside one write transaction: the rows and every thread's cursor commit together.
final class RowCollector: Sendable {
  private struct Entry {
    var row: OutboxRecord
    var postedAt: Date
    /// The post id as a number: the forum numbers posts in the order they are made, and its dates have only minutes.
    var postNumber: Int
    var sequence: Int
  }

  private let entries = Mutex<[Entry]>([])

  func add(_ row: OutboxRecord, postedAt: Date) {
    let number = row.postID.flatMap { Int($0) } ?? Int.max
    entries.withLock { $0.append(Entry(row: row, postedAt: postedAt, postNumber: number, sequence: $0.count)) }
  }

  /// Queues every collected row, oldest post first (rows of one post keep their order), and says what was queued.
  /// A row whose key is already in the outbox is not queued again and not counted.
  func flush(in tx: StoreTransaction) throws -> RelayOutcome {
    let sorted = entries.withLock { entries -> [Entry] in
      defer { entries = [] }
      return entries.sorted {
        ($0.postedAt, $0.postNumber, $0.sequence) < ($1.postedAt, $1.postNumber, $1.sequence)
      }
    }
    var outcome = RelayOutcome()
    for entry in sorted {
      var row = entry.row
      if try Relay.queue(&row, in: tx) {
        outcome.queued += 1
        outcome.transports.insert(row.transport)
      }
    }
    return outcome
  }
}
