import BotStore
import ForumsClient

/// Keeps the forum session's cookies in the bot's database, so a restart reuses the session instead of logging in.
package struct DatabaseCookieStore: CookieStore {
  let database: BotDatabase

  package init(database: BotDatabase) { self.database = database }

  package func load() async throws -> [StoredCookie] {
    try await database.read { store in
      try store.forumCookies().map {
        StoredCookie(
          name: $0.name, value: $0.value, domain: $0.domain, path: $0.path, expires: $0.expiresAt,
          isSecure: $0.isSecure, isHTTPOnly: $0.isHTTPOnly)
      }
    }
  }

  package func save(_ cookies: [StoredCookie]) async throws {
    let records = cookies.map {
      ForumCookieRecord(
        name: $0.name, domain: $0.domain, path: $0.path, value: $0.value, expiresAt: $0.expires,
        isSecure: $0.isSecure, isHTTPOnly: $0.isHTTPOnly)
    }
    try await database.write { store in try store.replaceForumCookies(records) }
  }
}
