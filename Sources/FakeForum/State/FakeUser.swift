import Foundation

/// A forum account. Passwords are kept in clear: this is a test emulator, never a real store.
package struct FakeUser: Sendable, Hashable, Codable {
  package var id: Int
  package var name: String
  package var password: String
  package var regdate: Date
  package var isAdmin: Bool
  package var isModerator: Bool
  /// A banned account can log in but every page it asks for is the banned page (like the real forum).
  package var isBanned: Bool
  /// Used when a request does not say `perpage` (the forum falls back to the user's own setting).
  package var postsPerPage: Int
  /// The custom title's HTML shown under the name.
  package var customTitleHTML: String
  /// A Platinum account may search (`query.php`); any other gets the "only accessible to Platinum members" page.
  package var isPlatinum: Bool = false

  package init(
    id: Int, name: String, password: String, regdate: Date, isAdmin: Bool = false, isModerator: Bool = false,
    isBanned: Bool = false, postsPerPage: Int = 40, customTitleHTML: String = ""
  ) {
    self.id = id
    self.name = name
    self.password = password
    self.regdate = regdate
    self.isAdmin = isAdmin
    self.isModerator = isModerator
    self.isBanned = isBanned
    self.postsPerPage = postsPerPage
    self.customTitleHTML = customTitleHTML
  }
}
