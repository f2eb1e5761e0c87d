import Foundation

/// One announcement from `announcement.php` (the bodies; titles come from thread lists).
package struct Announcement: Sendable, Hashable, Codable {
  package var title: String?
  package var author: PostAuthor
  package var date: Date?
  /// False when the page gives a day without a time ("Sep 05, 2010"): `date` is then that day's midnight in the
  /// forum's zone, and showing its hour would be made up.
  package var dateHasTime: Bool
  package var bodyHTML: String
  @RichTextBody package var body: [RichText]

  package init(
    title: String? = nil, author: PostAuthor, date: Date?, dateHasTime: Bool = true, bodyHTML: String,
    body: [RichText]
  ) {
    self.title = title
    self.author = author
    self.date = date
    self.dateHasTime = dateHasTime
    self.bodyHTML = bodyHTML
    self.body = body
  }
}
