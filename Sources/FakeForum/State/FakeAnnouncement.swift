import Foundation

/// A forum-wide announcement. It has no id on the forum: rows and bodies are matched by order.
package struct FakeAnnouncement: Sendable, Hashable, Codable {
  package var title: String
  package var authorID: Int
  package var date: Date
  package var body: FakePostBody
  package var icon: FakeThreadIcon

  package init(title: String, authorID: Int, date: Date, body: FakePostBody, icon: FakeThreadIcon = .announcementIcon) {
    self.title = title
    self.authorID = authorID
    self.date = date
    self.body = body
    self.icon = icon
  }
}

extension FakeThreadIcon {
  package static let announcementIcon = FakeThreadIcon(
    id: 90, imageURL: "http://fi.somethingawful.com/forums/posticons/icon-30-attnmod.gif")
}
