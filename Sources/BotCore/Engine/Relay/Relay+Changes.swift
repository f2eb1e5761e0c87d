import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Posts the bot relayed change on the forum afterwards: their author edits them, a moderator deletes them. The bot
/// notices where it reads the page anyway (the page of the last relayed post, read for new ones), at no extra
/// request, and follows the change in rooms whose transport can: an edit replaces the relay's text, a deletion takes
/// the relay back. A relay not sent yet is simply sent as the post now reads, or not at all. A room whose transport
/// cannot edit (IRC) may ask for one short line saying the post was edited (its `editNotices` setting).
extension Relay {
  /// The reason given with a relay taken back.
  static let deletedReason = "deleted on the forum"

  /// Queues an edit or a removal for each relay of a post whose text changed (it is in `seenAgain`) or that is gone
  /// (its id lies within the pages read, from the first post shown to the last, and it is not shown). Post ids only
  /// grow along a thread, so the pages read hold every post of that range that still exists.
  func followChanges(seenAgain: [Post], newPosts: [Post], threadID: String, in tx: StoreTransaction) throws
    -> RelayOutcome
  {
    let ids = (seenAgain + newPosts).compactMap { Int($0.id) }
    guard !seenAgain.isEmpty, let first = ids.min(), let last = ids.max() else { return RelayOutcome() }
    // A post read as new may have a relay already (a database restored from a backup reads from an older cursor):
    // it is shown, not deleted.
    let shown = Dictionary((seenAgain + newPosts).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var outcome = RelayOutcome()
    for row in try tx.postRelays(threadID: threadID, fromPostID: first, toPostID: last) {
      guard let postID = row.postID, let capabilities = transports[row.transport], let id = row.id,
        let stored = try? RelayCoding.decode(OutgoingMessage.self, from: row.payload),
        case .post(let relay) = stored.content
      else { continue }
      if let post = shown[postID] {
        guard post.body != relay.body else { continue }
        // The room's setting is read only where it decides: a pending relay or an editing transport follows anyway.
        let followed =
          try row.state == .pending || capabilities.edits
          || tx.room(transport: row.transport, room: row.room)?.editNotices == true
        guard followed else { continue }
        var edited = relay
        edited.body = post.body
        edited.quoteLinks = composer.post(post, threadID: threadID, threadTitle: relay.threadTitle).quoteLinks
        outcome.merge(try edit(row, id: id, to: edited, stored: stored, in: tx))
      } else if capabilities.removals {
        outcome.merge(try takeBack(row, id: id, stored: stored, in: tx))
      }
    }
    return outcome
  }

  /// A relay still waiting goes out with the new text; a delivered one gets an edit row (one per version of the text,
  /// so reading the page again queues nothing twice).
  private func edit(
    _ row: OutboxRecord, id: Int64, to edited: PostRelay, stored: OutgoingMessage, in tx: StoreTransaction
  ) throws -> RelayOutcome {
    var message = stored
    message.content = .post(edited)
    switch row.state {
    case .pending:
      try tx.updatePendingPayload(id: id, payload: try RelayCoding.encode(message))
      return RelayOutcome()
    case .delivered:
      guard let receipt = row.receipt else { return RelayOutcome() }
      message.replaces = receipt
      message.inReplyTo = nil
      return try queue(
        kind: .edit, payload: OutboxPayload(message: message),
        key: "edit:\(id):\(Self.fingerprint(edited.body))", from: row, reason: "post \(row.postID ?? "") edited",
        in: tx)
    default:
      return RelayOutcome()
    }
  }

  /// A delivered relay of a deleted post gets a removal row; one not sent yet is dropped with the reason.
  private func takeBack(_ row: OutboxRecord, id: Int64, stored: OutgoingMessage, in tx: StoreTransaction) throws
    -> RelayOutcome
  {
    switch row.state {
    case .pending:
      try tx.markFailed(id: id, error: "not sent: the post was \(Self.deletedReason) first", at: now)
      return RelayOutcome()
    case .delivered:
      guard let receipt = row.receipt else { return RelayOutcome() }
      return try queue(
        kind: .redaction, payload: OutboxPayload(message: stored, redacts: receipt), key: "redaction:\(id)",
        from: row, reason: "post \(row.postID ?? "") \(Self.deletedReason)", in: tx)
    default:
      return RelayOutcome()
    }
  }

  private func queue(
    kind: OutboxKind, payload: OutboxPayload, key: String, from original: OutboxRecord, reason: String,
    in tx: StoreTransaction
  ) throws -> RelayOutcome {
    var row = OutboxRecord(
      transport: original.transport, room: original.room, kind: kind, payload: try RelayCoding.encode(payload),
      idempotencyKey: key, createdAt: now, threadID: original.threadID, postID: original.postID, reason: reason)
    var outcome = RelayOutcome()
    if try Self.queue(&row, in: tx) {
      outcome.queued += 1
      outcome.transports.insert(original.transport)
    }
    return outcome
  }

  /// A short, stable name for a version of a post's text (FNV-1a over its JSON), for idempotency keys.
  static func fingerprint(_ body: [RichText]) -> String {
    let data = (try? RelayCoding.encode(body)) ?? ""
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
