/// A thread just started in a forum a room follows.
package struct NewThreadNotice: Sendable, Hashable, Codable {
  package var forumName: String?
  package var title: String
  package var author: String?
  package var link: String

  package init(forumName: String?, title: String, author: String?, link: String) {
    self.forumName = forumName
    self.title = title
    self.author = author
    self.link = link
  }
}
