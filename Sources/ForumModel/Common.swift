import Foundation

/// Star colour of a bookmark. Raw values are the forum's `category_id` and the `bmN` class suffix.
package enum StarColor: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  case orange = 0
  case red = 1
  case yellow = 2
  case cyan = 3
  case green = 4
  case purple = 5

  package var description: String { name }

  package var name: String {
    switch self {
    case .orange: "orange"
    case .red: "red"
    case .yellow: "yellow"
    case .cyan: "cyan"
    case .green: "green"
    case .purple: "purple"
    }
  }

  package init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
    self = match
  }
}

/// A thread tag (post icon) such as `…/posticons/dd-war.gif#359`.
package struct ThreadTag: Sendable, Hashable, Codable {
  /// The icon id: the `posticon` query value of a filter link or the fragment of the image URL, when known.
  package var id: String?
  package var imageURL: String
  /// Last path component of the image URL without its extension (`dd-war`).
  package var imageName: String

  package init(id: String?, imageURL: String, imageName: String) {
    self.id = id
    self.imageURL = imageURL
    self.imageName = imageName
  }
}

/// One entry of `div.breadcrumbs`: the first is the group, then forum, then subforum.
package struct Breadcrumb: Sendable, Hashable, Codable {
  package var forumID: String
  package var name: String
  package var depth: Int

  package init(forumID: String, name: String, depth: Int) {
    self.forumID = forumID
    self.name = name
    self.depth = depth
  }
}

/// Where a page sits in its list: read from `div.pages` data attributes, else from the old `<select>` markup.
package struct PageNavigation: Sendable, Hashable, Codable {
  package var current: Int
  package var total: Int

  package init(current: Int, total: Int) {
    self.current = current
    self.total = total
  }
}

/// The forum paginates everything the bot reads at 40 items a page (we always send `perpage=40`).
package let forumPageSize = 40
