import BotStore
import ChatBridge
import ForumModel
import Foundation

/// What rooms follow: subscriptions (bookmarks, star colours, announcements, forums) and watched threads, with the
/// forum bookmark a watch needs. Subscribing seeds cursors and watermarks so nothing already posted floods the room,
/// queues any backfill asked for (for a new subscription only), and asks the poller for an early poll.
///
/// Commands use it through `forCommands(through:)`: their forum requests go through the forum they are given (the
/// commands' budgeted one), and the caps per room apply. The engine's own callers (the config's rooms) use it as is.
package struct SubscriptionBook: Sendable, EnginePart {
  var context: EngineContext
  var backfiller: SubscriptionBackfill
  /// Woken after a change to what is watched, so the poller polls now.
  let pollSignal: WakeSignal
  /// Whether a new forum or watched thread is held to the room's cap (`EngineConfiguration.maximumForumsPerRoom`,
  /// `maximumWatchedThreadsPerRoom`): for commands, not for what the operator's config seeds.
  var holdsRoomsToCaps = false

  /// The book as a command uses it: every forum request it makes (a thread's page, a bookmark, a forum's first page,
  /// a backfill's pages) goes through `forum`, the commands' budgeted forum, and rooms are held to their caps.
  package func forCommands(through forum: any Forum) -> SubscriptionBook {
    var book = self
    book.context = context.through(forum)
    book.backfiller = backfiller.through(forum)
    book.holdsRoomsToCaps = true
    return book
  }

  /// Subscribes a room. Nothing already posted is sent (the cursor stays where it is, or is seeded at the current
  /// last post), except `backfill` items: the last N posts of a thread, the N newest threads of a forum, the
  /// current announcements (up to N), or the last N posts across the most recently active matching bookmarks.
  /// Subscribing again to the same target replaces its filters. `.thread` is the same as `watch`.
  @discardableResult
  package func subscribe(
    room: RoomRef, to target: SubscriptionTarget, filters: SubscriptionFilters = .none, backfill: Int = 0,
    createdBy: String? = nil
  ) async throws -> SubscribeResult {
    _ = try room.capabilities(in: transports)
    let backfill = max(0, backfill)
    switch target {
    case .thread(let id):
      return try await watch(threadID: id, room: room, filters: filters, backfill: backfill, createdBy: createdBy)
    case .stars(let colours) where colours.isEmpty:
      throw EngineError.invalidArgument("Name at least one star colour.")
    case .forum(let forumID):
      // Over the cap, refused before the forum is asked anything.
      try await checkCap(for: target, room: room)
      let title = try await seedForum(forumID: forumID)
      let (subscription, isNew) = try await store(target, filters: filters, room: room, createdBy: createdBy)
      let backfilled = await runBackfill(isNew ? backfill : 0) {
        try await backfiller.forumThreads(forumID: forumID, count: $0, for: subscription)
      }
      pollSignal.signal()
      return SubscribeResult(
        subscription: subscription, isNew: isNew, title: title, addedBookmark: false, backfilled: backfilled.queued,
        backfillFailure: backfilled.failure)
    case .announcements:
      let (subscription, isNew) = try await store(target, filters: filters, room: room, createdBy: createdBy)
      let backfilled = await runBackfill(isNew ? backfill : 0) {
        try await backfiller.announcements(count: $0, room: room)
      }
      return SubscribeResult(
        subscription: subscription, isNew: isNew, title: nil, addedBookmark: false, backfilled: backfilled.queued,
        backfillFailure: backfilled.failure)
    case .lepers:
      let (subscription, isNew) = try await subscribeToLepers(room: room, filters: filters, createdBy: createdBy)
      return SubscribeResult(
        subscription: subscription, isNew: isNew, title: nil, addedBookmark: false, backfilled: 0,
        backfillFailure: nil)
    case .bookmarks, .stars:
      let (subscription, isNew) = try await store(target, filters: filters, room: room, createdBy: createdBy)
      // Only a new subscription is backfilled: asking again (the same words repeated) reads nothing on the forum.
      let backfilled = await runBackfill(isNew ? backfill : 0) {
        try await backfiller.bookmarkedPosts(count: $0, for: subscription)
      }
      pollSignal.signal()
      return SubscribeResult(
        subscription: subscription, isNew: isNew, title: nil, addedBookmark: false, backfilled: backfilled.queued,
        backfillFailure: backfilled.failure)
    }
  }

  /// Removes the room's subscription to `target`. Returns it, or nil when the room had none.
  /// For a thread prefer `unwatch`, which also removes a bookmark the bot added.
  @discardableResult
  package func unsubscribe(room: RoomRef, from target: SubscriptionTarget) async throws -> Subscription? {
    if case .thread(let id) = target { return try await unwatch(threadID: id, room: room)?.removed }
    let key = target.storeKey
    return try await database.write { tx in
      guard
        let record = try tx.subscriptions(transport: room.transport, room: room.room)
          .first(where: { $0.kind == key.kind && $0.argument == key.argument }),
        let subscription = Subscription(record: record)
      else { return nil }
      try tx.deleteSubscription(id: subscription.id)
      return subscription
    }
  }

  /// Removes a subscription by id, only if it belongs to `room`. Returns it, or nil when there was none.
  @discardableResult
  package func unsubscribe(room: RoomRef, id: Int64) async throws -> Subscription? {
    let found = try await database.read { tx in try tx.subscription(id: id) }
    guard let found, found.transport == room.transport, found.room == room.room,
      let subscription = Subscription(record: found)
    else { return nil }
    if case .thread(let threadID) = subscription.target {
      return try await unwatch(threadID: threadID, room: room)?.removed
    }
    return try await unsubscribe(room: room, from: subscription.target)
  }

  /// The room's subscriptions, oldest first.
  package func subscriptions(room: RoomRef) async throws -> [Subscription] {
    try await database.read { tx in
      try tx.subscriptions(transport: room.transport, room: room.room).compactMap(Subscription.init(record:))
    }
  }

  /// Every subscription of every room.
  package func allSubscriptions() async throws -> [Subscription] {
    try await database.read { tx in try tx.allSubscriptions().compactMap(Subscription.init(record:)) }
  }

  /// Watches one thread in a room: validates the thread (one page request when the bot does not know it yet),
  /// bookmarks it on the forum when it is not bookmarked (recording that the bot added it, so `unwatch` can undo
  /// that), and subscribes the room. No flood: only posts after the current last post are relayed, plus
  /// `backfill` of the latest ones when the room did not watch the thread yet (watching again changes the filters).
  @discardableResult
  package func watch(
    threadID: String, room: RoomRef, filters: SubscriptionFilters = .none, backfill: Int = 0,
    createdBy: String? = nil, mayAddBookmark: Bool = true
  ) async throws -> SubscribeResult {
    _ = try room.capabilities(in: transports)
    let target = SubscriptionTarget.thread(id: threadID)
    let isWatched = try await subscriptions(room: room).contains { $0.target == target }
    // Over the cap, refused before the forum is asked anything; watched already, nothing is read for a backfill.
    if !isWatched { try await checkCap(for: target, room: room) }
    let backfill = isWatched ? 0 : max(0, backfill)
    var known = try await database.read { tx in try tx.thread(id: threadID) }
    var lastPage: PostsPage?
    if known == nil || backfill > 0 {
      let page = try await forum.threadPage(threadID: threadID, page: .last)
      lastPage = page
      if known == nil {
        let seeded = seededThread(from: page)
        known = try await database.write { tx in
          // Another path (the poller) may have seeded it meanwhile; its cursor wins.
          if let existing = try tx.thread(id: threadID) { return existing }
          try tx.save(seeded)
          return seeded
        }
      }
    }
    guard var thread = known else { throw EngineError.invalidArgument("Unknown thread \(threadID).") }

    var addedBookmark = false
    if !thread.isBookmarked && lastPage?.isBookmarked != true {
      guard mayAddBookmark else { throw EngineError.bookmarkNeeded(threadID: threadID) }
      try await forum.addBookmark(threadID: threadID, star: nil)
      addedBookmark = true
    }
    if addedBookmark || !thread.isBookmarked {
      let isAddedByBot = addedBookmark
      let fallback = thread
      thread = try await database.write { tx in
        var current = try tx.thread(id: threadID) ?? fallback
        current.isBookmarked = true
        current.addedByBot = current.addedByBot || isAddedByBot
        try tx.save(current)
        return current
      }
    }

    let (subscription, isNew) = try await store(target, filters: filters, room: room, createdBy: createdBy)
    let backfilled = await runBackfill(isNew ? backfill : 0) { count in
      guard let lastPage else { return 0 }
      return try await backfiller.threadPosts(lastPage: lastPage, count: count, for: subscription)
    }
    pollSignal.signal()
    return SubscribeResult(
      subscription: subscription, isNew: isNew, title: thread.title.isEmpty ? nil : thread.title,
      addedBookmark: addedBookmark, backfilled: backfilled.queued, backfillFailure: backfilled.failure)
  }

  /// Stops watching a thread in a room. When no room watches it any more and the bot bookmarked it for a watch,
  /// the bookmark is removed on the forum too. Returns nil when the room was not watching it.
  @discardableResult
  package func unwatch(threadID: String, room: RoomRef) async throws -> UnwatchResult? {
    let removal = try await database.write { tx -> (Subscription, Bool)? in
      guard
        let record = try tx.subscriptions(transport: room.transport, room: room.room)
          .first(where: { $0.kind == .thread && $0.argument == threadID }),
        let subscription = Subscription(record: record)
      else { return nil }
      try tx.deleteSubscription(id: subscription.id)
      let stillWatched = try tx.subscriptions(kind: .thread).contains { $0.argument == threadID }
      let addedByBot = try tx.thread(id: threadID)?.addedByBot ?? false
      return (subscription, !stillWatched && addedByBot)
    }
    guard let (subscription, shouldRemoveBookmark) = removal else { return nil }
    if shouldRemoveBookmark {
      try await forum.removeBookmark(threadID: threadID)
      try await database.write { tx in
        guard var thread = try tx.thread(id: threadID) else { return }
        thread.isBookmarked = false
        thread.addedByBot = false
        try tx.save(thread)
      }
    }
    return UnwatchResult(removed: subscription, removedBookmark: shouldRemoveBookmark)
  }

  /// The rooms that watch one thread.
  package func roomsWatching(threadID: String) async throws -> [RoomRef] {
    try await allSubscriptions().filter { $0.target == .thread(id: threadID) }.map(\.room)
  }

  // MARK: Helpers

  /// Runs a new subscription's backfill of `count` items (0: none). The subscription stands whatever happens to it:
  /// a failure (the forum, or the commands' share of forum requests running out) is said after "Subscribed", not
  /// instead of it.
  private func runBackfill(_ count: Int, _ body: (Int) async throws -> Int) async -> (queued: Int, failure: String?) {
    guard count > 0 else { return (0, nil) }
    do {
      return (try await body(count), nil)
    } catch {
      return (0, ErrorText.describe(error))
    }
  }

  /// Throws `EngineError.roomCapReached` when `target` would be one forum or watched thread too many for the room
  /// (commands only). Following again what the room follows already is never refused.
  private func checkCap(for target: SubscriptionTarget, room: RoomRef) async throws {
    guard holdsRoomsToCaps else { return }
    let existing = try await database.read { tx in try tx.subscriptions(transport: room.transport, room: room.room) }
    if let refusal = capRefusal(for: target, existing: existing) { throw refusal }
  }

  /// The refusal for one forum or watched thread too many among the room's `existing` subscriptions, or nil.
  private func capRefusal(for target: SubscriptionTarget, existing: [SubscriptionRecord]) -> EngineError? {
    guard holdsRoomsToCaps else { return nil }
    let (cap, maximum): (EngineError.RoomCap, Int)
    switch target {
    case .forum: (cap, maximum) = (.forums, configuration.maximumForumsPerRoom)
    case .thread: (cap, maximum) = (.watchedThreads, configuration.maximumWatchedThreadsPerRoom)
    case .bookmarks, .stars, .announcements, .lepers: return nil
    }
    let key = target.storeKey
    let same = existing.filter { $0.kind == key.kind }
    guard maximum > 0, same.count >= maximum, !same.contains(where: { $0.argument == key.argument }) else {
      return nil
    }
    return .roomCapReached(cap, count: same.count, maximum: maximum)
  }

  /// Makes sure a forum's new-thread watermark exists (one request the first time, which also checks the forum
  /// exists). Returns the forum's title when known and the page fetched, if any.
  @discardableResult
  private func seedForum(forumID: String) async throws -> String? {
    if let existing = try await database.read({ tx in try tx.watchedForum(id: forumID) }) {
      return existing.title
    }
    let page = try await forum.threads(forumID: forumID, page: 1)
    let title = page.breadcrumbs.last?.name
    let highest = page.threads.compactMap { Int($0.id) }.max() ?? 0
    let record = WatchedForumRecord(forumID: forumID, title: title, highestThreadID: highest, updatedAt: now())
    try await database.write { tx in
      if try tx.watchedForum(id: forumID) == nil { try tx.save(record) }
    }
    return title
  }

  func store(
    _ target: SubscriptionTarget, filters: SubscriptionFilters, room: RoomRef, createdBy: String?,
    alsoIn extra: @escaping @Sendable (StoreTransaction) throws -> Void = { _ in }
  ) async throws -> (Subscription, Bool) {
    let key = target.storeKey
    let now = now()
    let cap = configuration.replayCap
    let record = SubscriptionRecord(
      transport: room.transport, room: room.room, kind: key.kind, argument: key.argument,
      includeAuthors: filters.includeAuthors, excludeAuthors: filters.excludeAuthors, keywords: filters.keywords,
      opOnly: filters.opOnly, createdAt: now, createdBy: createdBy)
    let (stored, isNew) = try await database.write { [self] tx in
      _ = try tx.ensureRoom(transport: room.transport, room: room.room, now: now, replayCap: cap)
      // Checked again where it is written: two commands at once cannot both take the last place.
      let existing = try tx.subscriptions(transport: room.transport, room: room.room)
      if let refusal = capRefusal(for: target, existing: existing) { throw refusal }
      try extra(tx)
      return try tx.upsertSubscription(record)
    }
    guard let subscription = Subscription(record: stored) else {
      throw EngineError.invalidArgument("Could not store the subscription.")
    }
    return (subscription, isNew)
  }

  /// A thread first seen on its own page: the cursor sits at its last post, so nothing already posted is relayed.
  private func seededThread(from page: PostsPage) -> ThreadRecord {
    let now = now()
    let last = page.posts.max { $0.index < $1.index }
    return ThreadRecord(
      id: page.threadID, title: page.threadTitle, forumID: page.forumID, replyCount: max((last?.index ?? 1) - 1, 0),
      lastPostAt: last?.date, lastPostAuthor: last?.author.name, cursorIndex: last?.index ?? 0,
      cursorPostID: last?.id, isBookmarked: page.isBookmarked ?? false, isClosed: page.isClosed, firstSeenAt: now,
      updatedAt: now)
  }
}
