import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Turns new forum content into outbox rows (or held items) inside the caller's transaction, so the cursor advance
/// and the rows commit together. Pure apart from the transaction: the clock reading is passed in.
struct Relay {
  var composer: MessageComposer
  var transports: [String: ChatCapabilities]
  var calendar: Calendar
  var defaultReplayCap: Int
  var backlogLimit: Int
  var backlogAge: TimeInterval
  var now: Date
  /// When set, rows of thread relays (posts, summaries, alerts) are collected and queued later in posting order
  /// across threads (`RowCollector.flush`); the counts in the outcomes are then tentative until the flush.
  var collector: RowCollector?

  init(
    composer: MessageComposer, transports: [String: ChatCapabilities], configuration: EngineConfiguration, now: Date,
    collector: RowCollector? = nil
  ) {
    self.collector = collector
    self.composer = composer
    self.transports = transports
    self.calendar = configuration.calendar
    self.defaultReplayCap = configuration.replayCap
    self.backlogLimit = configuration.backlogLimit
    self.backlogAge = configuration.backlogAge.timeInterval
    self.now = now
  }

  /// The hold reason of posts that came while the room was paused.
  static let pausedReason = "paused"
  /// The hold reason of what a room in digest mode keeps for its digest.
  static let digestReason = "digest"

  /// Why a room that holds everything now holds it: paused, or quiet (its hours, or `quiet for`).
  static func holdReason(_ settings: RoomSettings) -> String { settings.isPaused ? pausedReason : "quiet" }

  /// How a held item's stored reason ends (`held (digest)`, `held (quiet)`, `held (paused)`); the release reads it
  /// back to head its digest.
  static func heldNote(_ holdReason: String) -> String { "held (\(holdReason))" }

  // MARK: Threads

  /// Relays a thread's new posts to every subscribed room and alert, then advances its cursor, all in `tx`.
  /// Posts at or below the stored cursor are ignored, so relaying the same update twice queues nothing twice.
  func relay(_ update: ThreadUpdate, in tx: StoreTransaction) throws -> RelayOutcome {
    var thread =
      try tx.thread(id: update.threadID)
      ?? ThreadRecord(id: update.threadID, firstSeenAt: now, updatedAt: now)
    let posts = update.posts.filter { $0.index > thread.cursorIndex }.sorted { $0.index < $1.index }
    var outcome = RelayOutcome()
    outcome.merge(
      try followChanges(seenAgain: update.seenAgain, newPosts: update.posts, threadID: update.threadID, in: tx))

    if !posts.isEmpty {
      let subscriptions = try threadSubscriptions(in: tx).filter {
        $0.target.covers(threadID: update.threadID, star: update.star)
      }
      for (room, roomSubscriptions) in Dictionary(grouping: subscriptions, by: \.room) {
        guard transports[room.transport] != nil else { continue }
        // A post the bot made from this room (a confirmed reply) is not sent back to it: the room read it already.
        let admitted: [(post: Post, reason: String)] = try posts.compactMap { post in
          guard !(try tx.wasPostedFromChat(transport: room.transport, room: room.room, postID: post.id)) else {
            return nil
          }
          return roomSubscriptions.first(where: { $0.filters.admits(post) }).map { (post, $0.description) }
        }
        guard !admitted.isEmpty else { continue }
        outcome.merge(
          try deliver(admitted, threadID: update.threadID, threadTitle: update.title, to: room, in: tx))
      }
      outcome.merge(try alert(posts, threadID: update.threadID, threadTitle: update.title, in: tx))
      thread.cursorIndex = posts[posts.count - 1].index
      thread.cursorPostID = posts[posts.count - 1].id
    }

    thread.title = update.title.isEmpty ? thread.title : update.title
    thread.forumID = update.forumID ?? thread.forumID
    thread.star = update.star?.rawValue ?? thread.star
    thread.replyCount = update.replyCount
    thread.lastPostAt = update.lastPostAt ?? thread.lastPostAt
    thread.lastPostAuthor = update.lastPostAuthor ?? thread.lastPostAuthor
    thread.isClosed = update.isClosed
    thread.updatedAt = now
    try tx.save(thread)
    return outcome
  }

  private func threadSubscriptions(in tx: StoreTransaction) throws -> [Subscription] {
    try SubscriptionKind.threadKinds.flatMap { try tx.subscriptions(kind: $0) }
      .compactMap(Subscription.init(record:))
  }

  /// Queues posts of one thread for one room according to its mode, cap and quiet hours.
  func deliver(
    _ posts: [(post: Post, reason: String)], threadID: String, threadTitle: String, to room: RoomRef,
    in tx: StoreTransaction
  ) throws -> RelayOutcome {
    guard transports[room.transport] != nil, !posts.isEmpty else { return RelayOutcome() }
    let settings = RoomSettings(
      record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: defaultReplayCap)
    var outcome = RelayOutcome()

    if case .digest = settings.mode {
      return try hold(
        posts, threadID: threadID, threadTitle: threadTitle, room: room, reason: Self.digestReason, in: tx)
    }
    if settings.isQuiet(at: now, calendar: calendar) {
      // Paused or quiet: the release's heading says which.
      return try hold(
        posts, threadID: threadID, threadTitle: threadTitle, room: room, reason: Self.holdReason(settings), in: tx)
    }

    if case .summary(let threshold) = settings.mode, posts.count > threshold {
      try queueSummary(
        of: posts.map(\.post), threadID: threadID, threadTitle: threadTitle, room: room, settings: settings,
        reason: posts[0].reason, outcome: &outcome, in: tx)
      return outcome
    }
    // Far behind already (the chat service sends slower than the forum posts): count instead of adding to the lag.
    let waiting = try tx.outboxCounts(transport: room.transport, room: room.room).pending
    if waiting >= backlogLimit, let oldest = try tx.headOfQueue(transport: room.transport, room: room.room),
      now.timeIntervalSince(oldest.createdAt) > backlogAge
    {
      try queueSummary(
        of: posts.map(\.post), threadID: threadID, threadTitle: threadTitle, room: room, settings: settings,
        reason: "\(waiting) messages were still waiting for this room", outcome: &outcome, in: tx)
      return outcome
    }

    let cap = max(settings.replayCap, 0)
    for (post, reason) in posts.prefix(cap) {
      let key = OutboxKey.post(room, postID: post.id)
      let reference = wantsReference(room, settings)
      let message = OutgoingMessage(
        .post(composer.post(post, threadID: threadID, threadTitle: threadTitle)), threadKey: threadID)
      var row = OutboxRecord(
        transport: room.transport, room: room.room, kind: .post,
        payload: try RelayCoding.encode(message),
        idempotencyKey: key, createdAt: now, threadID: threadID, postID: post.id,
        reason: reason, reference: reference)
      if try enqueue(&row, postedAt: post.date, in: tx) {
        outcome.queued += 1
        outcome.transports.insert(room.transport)
      }
    }
    if posts.count > cap {
      let rest = posts.dropFirst(cap)
      try queueSummary(
        of: rest.map(\.post), threadID: threadID, threadTitle: threadTitle, room: room, settings: settings,
        reason: "more than \(cap) new posts in one cycle (the room's replay cap)", afterReplayCap: true,
        outcome: &outcome, in: tx)
    }
    return outcome
  }

  private func queueSummary(
    of posts: [Post], threadID: String, threadTitle: String, room: RoomRef, settings: RoomSettings, reason: String,
    afterReplayCap: Bool = false, outcome: inout RelayOutcome, in tx: StoreTransaction
  ) throws {
    guard let first = posts.first, let last = posts.last else { return }
    let key = OutboxKey.summary(room, threadID: threadID, fromIndex: first.index, toIndex: last.index)
    let reference = wantsReference(room, settings)
    let message = OutgoingMessage(
      .summary(
        composer.summary(
          threadID: threadID, threadTitle: threadTitle, count: posts.count, authors: posts.map(\.author.name),
          latest: last, afterReplayCap: afterReplayCap)),
      threadKey: threadID)
    // A summary-mode burst may later be extended by an edit (transports with `edits`), so the row keeps what it
    // counts. The line after a replay cap follows single posts and is never edited.
    let burst =
      afterReplayCap
      ? nil
      : SummaryBurst(
        threadID: threadID, threadTitle: threadTitle, count: posts.count, authors: posts.map(\.author.name),
        latestPostID: last.id, latestAuthor: last.author.name)
    var row = OutboxRecord(
      transport: room.transport, room: room.room, kind: .summary,
      payload: try RelayCoding.encode(OutboxPayload(message: message, summaryBurst: burst)),
      idempotencyKey: key, createdAt: now, threadID: threadID, postID: last.id,
      reason: "\(reason); posts: \(posts.map(\.id).joined(separator: " "))", reference: reference)
    if try enqueue(&row, postedAt: last.date, in: tx) {
      outcome.queued += 1
      outcome.transports.insert(room.transport)
    }
  }

  /// Marks a relay row to carry a short reference (`r7`) where readers answer relays by reference: in rooms where
  /// replying is on, on transports without native replies. The number is given when the row is queued
  /// (`queue(_:in:)`), so rows queued together in posting order get rising numbers.
  private func wantsReference(_ room: RoomRef, _ settings: RoomSettings) -> String? {
    guard settings.replies != .off, let capabilities = transports[room.transport], !capabilities.replies else {
      return nil
    }
    return Self.referenceToGive
  }

  /// A row's reference before it has its number.
  static let referenceToGive = "r?"

  /// Queues `row`, first giving it the room's next reference (in the row and in its message) when it wants one.
  /// A row already queued under the same key is left as it is (the insert is a no-op), its reference too.
  static func queue(_ row: inout OutboxRecord, in tx: StoreTransaction) throws -> Bool {
    if row.reference == referenceToGive {
      if try tx.outboxRow(idempotencyKey: row.idempotencyKey) != nil { return false }
      let reference = try tx.nextReference(transport: row.transport, room: row.room)
      var payload = try RelayCoding.decode(OutboxPayload.self, from: row.payload)
      payload.message.reference = reference
      row.payload = try RelayCoding.encode(payload)
      row.reference = reference
    }
    return try tx.enqueue(&row)
  }

  private func hold(
    _ posts: [(post: Post, reason: String)], threadID: String, threadTitle: String, room: RoomRef, reason: String,
    in tx: StoreTransaction
  ) throws -> RelayOutcome {
    var outcome = RelayOutcome()
    for (post, why) in posts {
      let item = HeldItemRecord(
        transport: room.transport, room: room.room, kind: .post, threadID: threadID, threadTitle: threadTitle,
        postID: post.id, payload: try RelayCoding.encode(post), reason: "\(why); \(Self.heldNote(reason))",
        createdAt: now)
      if try tx.hold(item) { outcome.held += 1 }
    }
    return outcome
  }

  // MARK: Other messages

  /// Queues one ready message (alert, announcement, new thread) for a room, or holds it while the room is quiet.
  func deliver(
    _ message: OutgoingMessage, kind: OutboxKind, key: String, to room: RoomRef, threadID: String? = nil,
    postID: String? = nil, postedAt: Date? = nil, reason: String, in tx: StoreTransaction
  ) throws -> RelayOutcome {
    var outcome = RelayOutcome()
    let settings = RoomSettings(
      record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: defaultReplayCap)
    if settings.isQuiet(at: now, calendar: calendar) {
      let held = HeldMessage(kind: kind, key: key, postID: postID, message: message)
      let item = HeldItemRecord(
        transport: room.transport, room: room.room, kind: .message, threadID: threadID, postID: key,
        payload: try RelayCoding.encode(held),
        reason: "\(reason); \(Self.heldNote(Self.holdReason(settings)))", createdAt: now)
      if try tx.hold(item) { outcome.held += 1 }
      return outcome
    }
    // Only what shows a post of a thread can be answered on the forum (not a private message, not an announcement).
    let reference = postID != nil && threadID != nil ? wantsReference(room, settings) : nil
    var row = OutboxRecord(
      transport: room.transport, room: room.room, kind: kind, payload: try RelayCoding.encode(message),
      idempotencyKey: key, createdAt: now, threadID: threadID, postID: postID, reason: reason,
      reference: reference)
    // Alerts belong with the posts of the poll (posting order); announcements and new threads go out at once.
    let queued = postedAt != nil ? try enqueue(&row, postedAt: postedAt, in: tx) : try Self.queue(&row, in: tx)
    if queued {
      outcome.queued += 1
      outcome.transports.insert(room.transport)
    }
    return outcome
  }

  /// Queues a row now, or hands it to the collector (which queues it in posting order at the end of the poll).
  private func enqueue(_ row: inout OutboxRecord, postedAt: Date?, in tx: StoreTransaction) throws -> Bool {
    guard let collector else { return try Self.queue(&row, in: tx) }
    collector.add(row, postedAt: postedAt ?? now)
    return true
  }

  // MARK: Alerts

  /// One alert row per room and post when the post quotes or mentions a username the room registered.
  private func alert(_ posts: [Post], threadID: String, threadTitle: String, in tx: StoreTransaction) throws
    -> RelayOutcome
  {
    let registrations = try tx.allAlerts()
    guard !registrations.isEmpty else { return RelayOutcome() }
    let byRoom = Dictionary(grouping: registrations) { RoomRef(transport: $0.transport, room: $0.room) }
    var outcome = RelayOutcome()
    for post in posts {
      let quoted = Set(RichText.quotedAuthors(in: post.body).map { $0.lowercased() })
      let text = plainText(post.body, quotes: .omitted)
      for (room, entries) in byRoom {
        guard transports[room.transport] != nil else { continue }
        var reasons: [String] = []
        for entry in entries where entry.username.lowercased() != post.author.name.lowercased() {
          if quoted.contains(entry.username.lowercased()) {
            reasons.append("\(entry.username) was quoted")
          } else if Self.mentions(text, name: entry.username) {
            reasons.append("\(entry.username) was mentioned")
          }
        }
        guard !reasons.isEmpty else { continue }
        let why = reasons.joined(separator: ", ")
        let message = OutgoingMessage(
          .alert(PostAlert(reasons: reasons, post: composer.post(post, threadID: threadID, threadTitle: threadTitle))),
          threadKey: threadID)
        outcome.merge(
          try deliver(
            message, kind: .alert, key: OutboxKey.alert(room, postID: post.id), to: room, threadID: threadID,
            postID: post.id, postedAt: post.date ?? now, reason: "alert: \(why)", in: tx))
      }
    }
    return outcome
  }

  /// Whether `name` appears in `text` as a whole word (case-insensitive).
  static func mentions(_ text: String, name: String) -> Bool {
    guard !name.isEmpty else { return false }
    var searchRange = text.startIndex..<text.endIndex
    while let found = text.range(of: name, options: [.caseInsensitive], range: searchRange) {
      let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
      let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
      if !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false) { return true }
      searchRange = found.upperBound..<text.endIndex
    }
    return false
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}
