import ForumModel

/// A forum announcement to show in a room.
package struct AnnouncementRelay: Sendable, Hashable, Codable {
  /// The announcement's title; nil when the forum gave none (renderers then say "Forum announcement").
  package var title: String?
  package var author: String
  package var date: ChatDate?
  package var link: String
  package var body: [RichText]
  package var excerptLength: Int

  package init(title: String?, author: String, date: ChatDate?, link: String, body: [RichText], excerptLength: Int) {
    self.title = title
    self.author = author
    self.date = date
    self.link = link
    self.body = body
    self.excerptLength = excerptLength
  }
}
