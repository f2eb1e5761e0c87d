import AwfulScraping

/// `kind: "announcements"`: the bodies of `announcement.php` (titles come from thread lists, so usually null).
struct AnnouncementsOutput: Encodable, Sendable {
  struct Item: Encodable, Sendable {
    @JSONNullable var title: String? = nil
    var author: AuthorOutput
    @JSONNullable var date: String? = nil
    var body: BodyOutput
  }

  var kind = ScrapeKind.announcements.rawValue
  var announcements: [Item]

  init(_ announcements: [Announcement], format: ScrapeBodyFormat) {
    self.announcements = announcements.map {
      Item(
        title: $0.title, author: AuthorOutput($0.author), date: ScrapeJSON.timestamp($0.date),
        body: BodyOutput($0.body, format: format))
    }
  }
}
