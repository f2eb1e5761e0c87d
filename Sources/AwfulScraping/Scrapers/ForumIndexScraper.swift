import ForumModel
import Foundation

/// Reads `index.php?json=1` (docs/forum-protocol.md#forum-index): the groups (`has_threads == false`) with their forums
/// and subforums depth-first, and the logged-in user. Ids come out as strings whether the JSON has numbers or strings;
/// titles are entity-decoded; the user's biography is a string even when the JSON holds a number. A body that is not
/// JSON is checked for an error page (a logged-out or banned account gets HTML) before throwing `ScrapeError`.
package struct ForumIndexScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ForumIndex {
    let object: Any
    do {
      guard JSONNesting.isShallow(data) else { throw JSONNesting.TooDeep() }
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      if let document = try? HTMLDocument(data: data, url: url, contentTypeCharset: charset) {
        try ErrorPageScraper().check(document)
      }
      throw ScrapeError(page: "forum index", reason: "the body is not JSON (\(error.localizedDescription))")
    }
    guard let root = object as? [String: Any], let forums = root["forums"] as? [Any] else {
      throw ScrapeError(page: "forum index", reason: "no \"forums\" array in the JSON")
    }
    let groups = try forums.map { try node($0) }
    let user = (root["user"] as? [String: Any]).flatMap(self.user)
    return ForumIndex(groups: groups, user: user)
  }

  private func node(_ value: Any) throws -> ForumNode {
    guard let object = value as? [String: Any], let id = Self.string(object["id"]), !id.isEmpty else {
      throw ScrapeError(page: "forum index", reason: "a forum entry has no id")
    }
    let icon = Self.string(object["icon"]).flatMap { $0.isEmpty ? nil : $0 }
    let moderators = (object["moderators"] as? [[String: Any]] ?? []).compactMap { Self.string($0["username"]) }
    let children = try (object["sub_forums"] as? [Any] ?? []).map { try node($0) }
    return ForumNode(
      id: id,
      title: HTMLEntities.decode(Self.string(object["title"]) ?? ""),
      shortTitle: Self.string(object["title_short"]).map(HTMLEntities.decode),
      hasThreads: Self.bool(object["has_threads"]) ?? true,
      icon: icon,
      moderators: moderators,
      subforums: children)
  }

  private func user(_ object: [String: Any]) -> ForumUser? {
    guard let id = Self.string(object["userid"]), let name = Self.string(object["username"]) else { return nil }
    return ForumUser(id: id, name: HTMLEntities.decode(name), biography: Self.string(object["biography"]))
  }

  /// A JSON string or number as a string (`48`, `"48"`, `1.5`); nil for null, objects and arrays.
  static func string(_ value: Any?) -> String? {
    switch value {
    case let string as String: return string
    case let number as NSNumber:
      let double = number.doubleValue
      if double.rounded() == double, abs(double) < 1e15 { return String(Int64(double)) }
      return number.stringValue
    default: return nil
    }
  }

  static func bool(_ value: Any?) -> Bool? {
    switch value {
    case let bool as Bool: return bool
    case let number as NSNumber: return number.intValue != 0
    case let string as String: return ["1", "true", "yes"].contains(string.lowercased())
    default: return nil
    }
  }
}

extension ForumIndex {
  /// Every forum (not the groups) depth-first, with its group and parent chain, for lookups.
  package var allForums: [(forum: ForumNode, groupID: String, parentIDs: [String])] {
    var out: [(ForumNode, String, [String])] = []
    func visit(_ node: ForumNode, group: String, parents: [String]) {
      out.append((node, group, parents))
      for child in node.subforums { visit(child, group: group, parents: [node.id] + parents) }
    }
    for group in groups {
      for forum in group.subforums { visit(forum, group: group.id, parents: []) }
    }
    return out
  }
}
