import ForumModel
import Foundation

/// Reads the user sidebar of a post, announcement or PM (docs/forum-protocol.md#author-sidebar): name from `dt.author`,
/// roles from its classes, registration date, custom title, and the user id by three rules in order: the profile links'
/// `userid`, the `userid-N` class of `.userinfo`, an `input[name=userid]`.
struct AuthorSidebarScraper {
  var dates: ForumDates

  /// The parts of a post (or page) the sidebar reads, found by the caller's single walk. Raw nodes: a `Parts` is
  /// read while the page it came from is in hand, and is never kept.
  struct Parts {
    var author: RawNode?
    var registered: RawNode?
    var titles: [RawNode] = []
    var userinfo: RawNode?
    var profileLinks: RawNode?
    var useridInput: RawNode?

    /// Collects sidebar parts under `root` (a `table.post`, or a whole page).
    init(in root: HTMLNode) {
      root.raw.walkDescendants { node in
        guard node.isElement else { return .skipChildren }
        self.visit(node)
        return .descend
      }
    }

    init() {}

    /// Records `node` if it is a sidebar part; returns true when it was one.
    @discardableResult
    mutating func visit(_ node: RawNode) -> Bool {
      if node.isElement("dt") {
        if author == nil, node.hasClassToken("author") {
          author = node
          return true
        }
      } else if node.isElement("dd") {
        if registered == nil, node.hasClassToken("registered") {
          registered = node
          return true
        }
        if node.hasClassToken("title") {
          titles.append(node)
          return true
        }
      } else if node.isElement("td") || node.isElement("div") {
        if userinfo == nil, node.hasClassToken("userinfo") { userinfo = node }
      } else if node.isElement("ul") {
        if profileLinks == nil, node.hasClassToken("profilelinks") { profileLinks = node }
      } else if node.isElement("input") {
        if useridInput == nil, node.attribute("name", equals: "userid") { useridInput = node }
      }
      return false
    }
  }

  /// The author, or nil when there is no `dt.author`.
  func author(_ parts: Parts) -> PostAuthor? {
    guard let authorNode = parts.author else { return nil }
    let classes = authorNode.classes
    let title = parts.titles.first(where: { $0.firstDescendant("img") != nil }) ?? parts.titles.first
    return PostAuthor(
      name: authorNode.normalizedText,
      id: userID(parts),
      isOriginalPoster: classes.contains("op"),
      isAdministrator: classes.contains("role-admin"),
      isModerator: classes.contains("role-mod"),
      regdate: parts.registered.flatMap { dates.date(from: $0.textContent) },
      customTitleHTML: title.map(customTitleHTML),
      additionalClasses: classes.filter { !["author", "role-admin", "role-mod"].contains($0) })
  }

  func userID(_ parts: Parts) -> String? {
    if let link = parts.profileLinks?.firstDescendant(where: {
      $0.isElement("a") && $0.attribute("href", contains: "userid")
    }), let id = link.attribute("href").flatMap({ LinkParsing.queryValue("userid", in: $0) }), !id.isEmpty {
      return id
    }
    if let classValue = parts.userinfo?.attribute("class"),
      let id = LinkParsing.digits(after: "userid-", in: classValue)
    {
      return id
    }
    if let value = parts.useridInput?.attribute("value")?.trimmed, !value.isEmpty { return value }
    return nil
  }

  /// The custom title's children serialised, without the `br.pb` spacer the forum appends.
  private func customTitleHTML(_ title: RawNode) -> String {
    var children: [RawNode] = []
    var child = title.firstChild
    while let current = child {
      if !(current.isElement("br") && current.hasClassToken("pb")) { children.append(current) }
      child = current.nextSibling
    }
    return HTMLNode.serializeTrimmed(children)
  }
}
