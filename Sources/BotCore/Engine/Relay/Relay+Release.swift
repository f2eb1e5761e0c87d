import BotStore
import ChatBridge
import ForumModel
import Foundation

extension Relay {
  /// Releases what rooms held: when quiet hours end, and in digest mode when a digest is due. Posts go out as one
  /// digest message per room; held messages (alerts, announcements) go out unchanged with their own keys.
  func releaseHeld(in tx: StoreTransaction) throws -> RelayOutcome {
    var outcome = RelayOutcome()
    for (transport, roomID) in try tx.roomsWithHeldItems() {
      let room = RoomRef(transport: transport, room: roomID)
      guard transports[transport] != nil else { continue }
      var record = try tx.room(transport: transport, room: roomID)
      let settings = RoomSettings(record: record, defaultReplayCap: defaultReplayCap)
      if settings.isQuiet(at: now, calendar: calendar) { continue }

      let items = try tx.heldItems(transport: transport, room: roomID)
      // Posts and Colony entries go into the digest; held messages go out as they are.
      var digested = items.filter { $0.kind != .message }
      let messages = items.filter { $0.kind == .message }
      var isScheduledDigest = false
      if case .digest(let schedule) = settings.mode, let first = digested.first {
        let since = record?.lastDigestAt ?? first.createdAt
        if schedule.latestSlot(atOrBefore: now, in: calendar) > since {
          isScheduledDigest = true
        } else {
          digested = []
        }
      }

      if let first = digested.first, let last = digested.last, let firstID = first.id, let lastID = last.id {
        let posts = digested.filter { $0.kind == .post }
        let punishments = digested.filter { $0.kind == .punishment }
        let threads = try digestEntries(posts)
        let entries = threads + (try colonyEntry(punishments))
        let wasPaused = digested.contains { $0.reason?.hasSuffix(Self.heldNote(Self.pausedReason)) ?? false }
        // Held for a digest, then the room left digest mode before it was due: the room was never quiet.
        let leftDigestMode =
          !isScheduledDigest && digested.allSatisfy { $0.reason?.hasSuffix(Self.heldNote(Self.digestReason)) ?? false }
        let occasion: (reason: String, heading: String) =
          if isScheduledDigest {
            ("digest", "Digest: ")
          } else if wasPaused {
            ("resumed", "While this room was paused: ")
          } else if leftDigestMode {
            ("digest mode ended", "Held for this room's digest: ")
          } else {
            ("quiet hours ended", "While this room was quiet: ")
          }
        let heading =
          occasion.heading
          + Self.digestCounts(posts: posts.count, threads: threads.count, colonyEntries: punishments.count)
        let message = OutgoingMessage(.digest(Digest(title: heading, entries: entries)))
        let postIDs = posts.compactMap(\.postID).joined(separator: " ")
        var row = OutboxRecord(
          transport: transport, room: roomID, kind: .digest, payload: try RelayCoding.encode(message),
          idempotencyKey: OutboxKey.digest(room, firstHeldID: firstID, lastHeldID: lastID), createdAt: now,
          reason:
            occasion.reason + (punishments.isEmpty ? "" : "; Leper's Colony entries: \(punishments.count)")
            + "; posts: \(postIDs)")
        if try tx.enqueue(&row) {
          outcome.queued += 1
          outcome.transports.insert(transport)
        }
        if isScheduledDigest, var updated = record {
          updated.lastDigestAt = now
          try tx.save(updated)
          record = updated
        }
      }

      for item in messages {
        let held = try RelayCoding.decode(HeldMessage.self, from: item.payload)
        var row = OutboxRecord(
          transport: transport, room: roomID, kind: held.kind, payload: try RelayCoding.encode(held.message),
          idempotencyKey: held.key, createdAt: now, threadID: item.threadID, postID: held.postID,
          reason: item.reason)
        if try tx.enqueue(&row) {
          outcome.queued += 1
          outcome.transports.insert(transport)
        }
      }
      try tx.deleteHeld(ids: (digested + messages).compactMap(\.id))
    }
    return outcome
  }

  /// "12 new posts in 3 threads", "2 Leper's Colony entries", or both joined by "and".
  static func digestCounts(posts: Int, threads: Int, colonyEntries: Int) -> String {
    var parts: [String] = []
    if posts > 0 { parts.append("\(NameList.count(posts, "new post")) in \(NameList.count(threads, "thread"))") }
    if colonyEntries > 0 {
      parts.append(
        NameList.count(colonyEntries, "new Leper's Colony entry", plural: "new Leper's Colony entries"))
    }
    return parts.joined(separator: " and ")
  }

  /// The Leper's Colony's line: how many entries were held, for whom, linking the Colony's first page.
  private func colonyEntry(_ items: [HeldItemRecord]) throws -> [Digest.Entry] {
    guard !items.isEmpty else { return [] }
    let users = try items.map { try RelayCoding.decode(Punishment.self, from: $0.payload).subject.name }
    return [
      Digest.Entry(
        threadTitle: "The Leper's Colony", postCount: items.count, authors: users, link: composer.links.lepersColony(),
        subject: .lepersColony)
    ]
  }

  /// One entry per thread, in the order threads first appear; each links to the first post it covers.
  private func digestEntries(_ items: [HeldItemRecord]) throws -> [Digest.Entry] {
    var entries: [Digest.Entry] = []
    var positions: [String: Int] = [:]
    for item in items {
      let post = try RelayCoding.decode(Post.self, from: item.payload)
      let threadID = item.threadID ?? ""
      if let position = positions[threadID] {
        entries[position].postCount += 1
        entries[position].authors.append(post.author.name)
      } else {
        positions[threadID] = entries.count
        entries.append(
          Digest.Entry(
            threadTitle: item.threadTitle ?? "thread \(threadID)", postCount: 1, authors: [post.author.name],
            link: composer.links.post(composer.address(of: post, threadID: threadID))))
      }
    }
    return entries
  }
}
