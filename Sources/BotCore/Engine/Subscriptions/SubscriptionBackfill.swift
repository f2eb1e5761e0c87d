import BotStore
import ChatBridge
import ForumModel
import Foundation

/// Queues the latest items for a new subscription (`--backfill N`): the last posts of a thread or of the busiest
/// matching bookmarks, a forum's newest threads, the current announcements. Items go through the room's filters and
/// mode like any relay.
struct SubscriptionBackfill: EnginePart {
  var context: EngineContext
  let outbox: OutboxWriter

  /// Most items one backfill may queue: beyond this a room should read the forum.
  static let maximumBackfill = 40

  /// The same backfill, reading the forum through `forum` (a command's budgeted forum).
  func through(_ forum: any Forum) -> SubscriptionBackfill {
    var backfill = self
    backfill.context = context.through(forum)
    return backfill
  }

  /// Queues the last `count` posts of a thread for the subscription's room (one more page when the last page
  /// holds fewer). Posts go through the room's filters and mode like any relay.
  func threadPosts(lastPage: PostsPage, count: Int, for subscription: Subscription) async throws -> Int {
    let count = min(count, Self.maximumBackfill)
    var posts = lastPage.posts
    if posts.count < count, let current = lastPage.page?.current, current > 1 {
      let previous = try await forum.threadPage(threadID: lastPage.threadID, page: .number(current - 1))
      posts = previous.posts + posts
    }
    let chosen = Array(posts.sorted { $0.index < $1.index }.suffix(count))
    return try await queueBackfill(chosen, threadID: lastPage.threadID, title: lastPage.threadTitle, for: subscription)
  }

  /// Queues the last `count` posts across the most recently active bookmarked threads the subscription covers
  /// (one request per thread, at most `count` threads). A page refused after others were read (the commands' share
  /// of forum requests ran out, the forum failed) ends the reading: what was read is queued, and the answer says
  /// how many.
  func bookmarkedPosts(count: Int, for subscription: Subscription) async throws -> Int {
    let count = min(count, Self.maximumBackfill)
    let threads = try await database.read { tx in try tx.bookmarkedThreads() }
      .filter { subscription.target.covers(threadID: $0.id, star: $0.star.flatMap(StarColor.init(rawValue:))) }
    var collected: [(post: Post, threadID: String, title: String)] = []
    for thread in threads.prefix(count) where collected.count < count {
      let page: PostsPage
      do {
        page = try await forum.threadPage(threadID: thread.id, page: .last)
      } catch _ where !collected.isEmpty {
        break
      }
      collected += page.posts.map { ($0, page.threadID, page.threadTitle) }
    }
    let newest = collected.sorted { ($0.post.date ?? .distantPast) < ($1.post.date ?? .distantPast) }.suffix(count)
    var queued = 0
    for (threadID, group) in Dictionary(grouping: newest, by: \.threadID) {
      queued += try await queueBackfill(
        group.map(\.post).sorted { $0.index < $1.index }, threadID: threadID, title: group[0].title,
        for: subscription)
    }
    return queued
  }

  private func queueBackfill(_ posts: [Post], threadID: String, title: String, for subscription: Subscription)
    async throws -> Int
  {
    let admitted = posts.filter(subscription.filters.admits).map { ($0, "backfill: \(subscription.description)") }
    guard !admitted.isEmpty else { return 0 }
    let relay = outbox.relay(now: now())
    let room = subscription.room
    let outcome = try await database.write { tx in
      try relay.deliver(admitted, threadID: threadID, threadTitle: title, to: room, in: tx)
    }
    outbox.wakeDispatchers(outcome.transports)
    return outcome.queued + outcome.held
  }

  /// Queues the `count` newest threads of a forum for the subscription's room.
  func forumThreads(forumID: String, count: Int, for subscription: Subscription) async throws -> Int {
    let page = try await forum.threads(forumID: forumID, page: 1)
    let title = page.breadcrumbs.last?.name
    let newest = page.threads.filter { Int($0.id) != nil }.sorted { Int($0.id)! > Int($1.id)! }
      .prefix(min(count, Self.maximumBackfill)).reversed()
    _ = try subscription.room.capabilities(in: transports)
    let relay = outbox.relay(now: now())
    let composer = composer
    let outcome = try await database.write { tx in
      var outcome = RelayOutcome()
      for thread in newest
      where subscription.filters.admits(author: thread.authorName, isOriginalPoster: true, text: { thread.title }) {
        let message = OutgoingMessage(.newThread(composer.newThread(thread, forumTitle: title)), threadKey: thread.id)
        outcome.merge(
          try relay.deliver(
            message, kind: .newThread, key: OutboxKey.newThread(subscription.room, threadID: thread.id),
            to: subscription.room, threadID: thread.id, reason: "backfill: \(subscription.description)", in: tx))
      }
      return outcome
    }
    outbox.wakeDispatchers(outcome.transports)
    return outcome.queued + outcome.held
  }

  /// Queues up to `count` of the current announcements for one room.
  func announcements(count: Int, room: RoomRef) async throws -> Int {
    var requests = 0
    let set = try await AnnouncementSet.fetch(from: forum, requests: &requests)
    _ = try room.capabilities(in: transports)
    let relay = outbox.relay(now: now())
    let composer = composer
    let items = Array(set.items.prefix(min(count, Self.maximumBackfill)))
    let outcome = try await database.write { tx in
      var outcome = RelayOutcome()
      for item in items {
        let message = OutgoingMessage(.announcement(composer.announcement(item.announcement)))
        outcome.merge(
          try relay.deliver(
            message, kind: .announcement, key: OutboxKey.announcement(room, hash: item.hash), to: room,
            reason: "backfill: announcements", in: tx))
      }
      return outcome
    }
    outbox.wakeDispatchers(outcome.transports)
    return outcome.queued + outcome.held
  }
}
