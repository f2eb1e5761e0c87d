import Foundation

/// A user named on a page by a profile link: the link text and the `userid` of its href.
package struct ForumUserReference: Sendable, Hashable, Codable {
  package var name: String
  package var id: String?

  package init(name: String, id: String?) {
    self.name = name
    self.id = id
  }

  /// Reads a `member.php?…userid=N` link; nil when the link has no text.
  init?(link: HTMLNode) {
    let name = ExtraScraping.collapsed(link.textContent)
    guard !name.isEmpty else { return nil }
    let id = ExtraScraping.queryValue("userid", in: link.attribute("href"))
    self.init(name: name, id: id)
  }
}
