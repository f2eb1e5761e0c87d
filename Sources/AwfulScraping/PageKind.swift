import ForumModel
import Foundation

/// What kind of forum page some bytes are, recognised by markers rather than by URL alone, so a saved page can be
/// scraped with the right scraper (`awfulbot scrape`). Error pages win over everything else.
package enum PageKind: String, Sendable, Hashable, CaseIterable {
  case threadList
  case posts
  case announcements
  case showPost
  case forumIndex
  case error
  case replyForm
  /// `private.php?folderid=N`.
  case privateMessageFolder
  /// `private.php?action=show&privatemessageid=M`.
  case privateMessage
  /// `banlist.php`: the Leper's Colony or a rap sheet.
  case lepersColony

  /// The kind of page, or nil when nothing recognisable is there.
  package static func detect(data: Data, url: URL? = nil, charset: String? = nil) -> PageKind? {
    if looksLikeJSON(data) {
      guard JSONNesting.isShallow(data), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return nil }
      return object["forums"] != nil ? .forumIndex : nil
    }
    guard let document = try? HTMLDocument(data: data, url: url, contentTypeCharset: charset) else { return nil }
    return detect(document)
  }

  package static func detect(_ document: HTMLDocument) -> PageKind? {
    if ErrorPageScraper().scrape(document) != nil { return .error }
    guard let body = document.body else { return nil }
    let urlString = document.url?.absoluteString ?? ""

    var replyForm = false
    var bookmarksForm = false
    var threadRow = false
    var postTables: [HTMLNode] = []
    var threadContainer = false
    var breadcrumbThreadLink = false
    var folderMenu = false
    var messageButtons = false
    var colonyHeader = false
    body.walkDescendants { node in
      guard node.isElement else { return .skipChildren }
      if node.isElement("form") {
        switch node.attribute("name") {
        case "vbform": replyForm = true
        case "bookmarks": bookmarksForm = true
        default: break
        }
      } else if node.isElement("select"), node.attribute("name", equals: "folderid") {
        folderMenu = true
        return .skipChildren
      } else if node.isElement("th") {
        if node.normalizedText == "Horrible Jerk" { colonyHeader = true }
        return .skipChildren
      } else if node.isElement("tr"), node.hasClassToken("thread") {
        threadRow = true
        return .skipChildren
      } else if node.isElement("table"), node.hasClassToken("post") {
        postTables.append(node)
        return .skipChildren
      } else if node.isElement("div") {
        if node.attribute("id", equals: "thread"), node.attribute("class")?.hasPrefix("thread:") == true {
          threadContainer = true
        } else if node.hasClassToken("breadcrumbs"), PageChrome.threadLink(in: node) != nil {
          breadcrumbThreadLink = true
        } else if node.hasClassToken("buttons"),
          node.firstDescendant(where: { $0.isElement("a") && $0.attribute("href", contains: "privatemessageid") })
            != nil
        {
          messageButtons = true
        }
      }
      return .descend
    }

    if replyForm { return .replyForm }
    if body.hasClassToken("banlist") || colonyHeader { return .lepersColony }
    if bookmarksForm || threadRow { return .threadList }
    // A message page also has the folder menu, and its sidebar sits in a `table.post`.
    if messageButtons || body.hasClassToken("privmsg") { return .privateMessage }
    if folderMenu || body.hasClassToken("privfolder") { return .privateMessageFolder }
    if urlString.contains("action=showpost") || body.hasClassToken("showpost"), !postTables.isEmpty { return .showPost }
    let hasPosts = postTables.contains { $0.attribute("id")?.hasPrefix("post") == true }
    if hasPosts, body.hasAttribute("data-thread") || breadcrumbThreadLink { return .posts }
    if hasPosts, threadContainer { return .showPost }
    if urlString.contains("announcement.php") || (!postTables.isEmpty && !hasPosts) { return .announcements }
    if hasPosts { return .posts }
    return nil
  }

  private static func looksLikeJSON(_ data: Data) -> Bool {
    for byte in data.prefix(64) {
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): return true
      default: return false
      }
    }
    return false
  }
}
