/// Where the forum session's cookies live between runs. The engine persists them (SQLite); tests keep them in memory.
package protocol CookieStore: Sendable {
  func load() async throws -> [StoredCookie]
  func save(_ cookies: [StoredCookie]) async throws
}
