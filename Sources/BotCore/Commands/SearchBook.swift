import ChatBridge
import ForumModel
import Foundation

/// What `search` remembers between commands: when each user last searched (the bot's own limit, `commands.
/// userSearchesPerMinute`, one a minute by default, on top of the command budget: the forum limits its searches
/// too), and each room's last search, so `search more` pages on through it. Shared by every transport's router.
package actor SearchBook {
  /// A room's last search: the forum's page of results it holds and how many of them were shown.
  package struct Session: ExpiringSession, Hashable {
    /// The words as the asker gave them, for the answer's heading.
    package var words: String
    package var queryID: String?
    package var page: Int
    package var pages: Int
    package var totalResults: Int?
    package var results: [SearchResult]
    /// How many of `results` were shown already.
    package var shown: Int
    /// How many results of the earlier pages were shown (numbers the results when the page does not).
    package var shownBefore: Int
    package var expires: Date
  }

  /// How long `more` can page through a search (the forum forgets its searches too).
  package static let sessionLifetime: TimeInterval = 30 * 60

  private let budget: CommandBudget
  private var searches: [String: [Date]] = [:]
  private var sessions = RoomPagingSessions<Session>()
  /// Users are forgotten once stale; this bounds them between clean-ups.
  private let maximumEntries = 10_000

  package init(budget: CommandBudget) {
    self.budget = budget
  }

  /// Takes one search from `user`'s share: nil when allowed, else the limit and the seconds until a search is free.
  package func admitSearch(user: String, now: Date) async -> (limit: Int, wait: Int)? {
    let limit = await budget.limits.userSearchesPerMinute
    guard limit > 0 else { return nil }
    var recent = (searches[user] ?? []).filter { now.timeIntervalSince($0) < 60 }
    defer {
      searches[user] = recent
      if searches.count > maximumEntries {
        searches = searches.filter { $0.value.contains { now.timeIntervalSince($0) < 60 } }
      }
    }
    guard recent.count >= limit, let oldest = recent.min() else {
      recent.append(now)
      return nil
    }
    return (limit, max(1, Int((60 - now.timeIntervalSince(oldest)).rounded(.up))))
  }

  /// Gives back the search `admitSearch` took at `at`: the forum did not search (it refused, or could not be
  /// reached), so the user's minute is not spent.
  package func refundSearch(user: String, at date: Date) {
    guard var recent = searches[user], let index = recent.lastIndex(of: date) else { return }
    recent.remove(at: index)
    searches[user] = recent
  }

  package func session(room: RoomRef, now: Date) -> Session? { sessions.session(room: room, now: now) }

  package func store(_ session: Session, room: RoomRef, now: Date) { sessions.store(session, room: room, now: now) }

  package func forget(room: RoomRef) { sessions.forget(room: room) }
}
