/// A `CookieStore` that forgets everything when the process ends.
package actor InMemoryCookieStore: CookieStore {
  private var cookies: [StoredCookie]

  package init(_ cookies: [StoredCookie] = []) {
    self.cookies = cookies
  }

  package func load() throws -> [StoredCookie] { cookies }

  package func save(_ cookies: [StoredCookie]) throws {
    self.cookies = cookies
  }
}
