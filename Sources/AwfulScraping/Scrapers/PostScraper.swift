import ForumModel
import Foundation

/// Reads one `table.post` (docs/forum-protocol.md#thread-pages) with a single walk over its subtree. The post's index
/// in the thread is left to the page scraper, which knows the neighbours; this returns what the post itself says.
struct PostScraper {
  var dates: ForumDates
  var baseURL: URL?

  /// A post as read from its table, before the page assigns derived indices.
  struct Scraped {
    var post: Post
    /// `data-idx`, when present and numeric.
    var explicitIndex: Int?
    /// The `index` of the "mark read to here" link, the forum's own count of the post's position.
    var lastSeenIndex: Int?
    /// True when a "Remove user filter" link is shown (single-user view).
    var showsRemoveFilter: Bool
  }

  func scrape(_ table: HTMLNode) throws -> Scraped {
    guard let rawID = table.attribute("id"), let id = LinkParsing.digits(after: "post", in: rawID) else {
      throw ScrapeError(page: "thread", reason: "a table.post has no post id (id=\"post<N>\")")
    }
    var sidebar = AuthorSidebarScraper.Parts()
    var postBody: RawNode?
    var postDate: RawNode?
    var seen = false
    var editable = false
    var canMessage = false
    var lastSeenIndex: Int?
    var removeFilter = false

    // Raw nodes: `table` keeps the page alive for this whole call, and the walk passes hundreds of nodes a post.
    table.raw.walkDescendants { node in
      guard node.isElement else { return .skipChildren }
      if sidebar.visit(node) { return .skipChildren }
      if node.isElement("tr") {
        if node.hasClassToken("seen1") || node.hasClassToken("seen2") { seen = true }
      } else if node.isElement("td") {
        if postBody == nil, node.hasClassToken("postbody") {
          postBody = node
          // The FYAD layout puts the sidebar inside the body cell: look for it without reading the content.
          if let userinfo = node.firstChild(where: { $0.isElement("div") && $0.hasClassToken("userinfo") }) {
            sidebar.userinfo = sidebar.userinfo ?? userinfo
            userinfo.walkDescendants { inner in
              if inner.isElement { sidebar.visit(inner) }
              return .descend
            }
          }
          return .skipChildren
        }
        if postDate == nil, node.hasClassToken("postdate") { postDate = node }
      } else if node.isElement("ul") {
        if node.hasClassToken("profilelinks") {
          sidebar.profileLinks = node
          canMessage =
            node.firstDescendant(where: { $0.isElement("a") && $0.attribute("href", contains: "private.php") }) != nil
          return .skipChildren
        }
        if node.hasClassToken("postbuttons") {
          editable =
            node.firstDescendant(where: { $0.isElement("a") && $0.attribute("href", contains: "editpost.php") }) != nil
          return .skipChildren
        }
      } else if node.isElement("a") {
        if node.hasClassToken("lastseen_icon") {
          lastSeenIndex = node.attribute("href").flatMap { LinkParsing.queryValue("index", in: $0) }.flatMap { Int($0) }
            .map { Clamp.forumNumber($0, atLeast: 1) }
        } else if node.hasClassToken("user_jump"), node.attribute("title", contains: "Remove") {
          removeFilter = true
        }
      }
      return .descend
    }

    let author =
      AuthorSidebarScraper(dates: dates).author(sidebar)
      ?? PostAuthor(name: "", id: AuthorSidebarScraper(dates: dates).userID(sidebar))
    let dateRaw = postDate.flatMap(Self.lastText)
    let content = postBody.map { PostContent(table.node($0)) } ?? PostContent(nodes: [], editNote: nil)
    // Within 1...Clamp.forumNumber: the indexes are added to and multiplied (`assignIndices`, the page of a post).
    let explicitIndex = table.attribute("data-idx").flatMap { Int($0.trimmed) }.map {
      Clamp.forumNumber($0, atLeast: 1)
    }

    let post = Post(
      id: id,
      index: explicitIndex ?? 0,
      indexIsExplicit: explicitIndex != nil,
      author: author,
      date: dateRaw.flatMap { dates.date(from: $0) },
      dateRaw: dateRaw,
      hasBeenSeen: seen,
      isIgnored: table.hasClassToken("ignored"),
      isEditable: editable,
      authorCanReceivePrivateMessages: canMessage,
      bodyHTML: HTMLNode.serializeTrimmed(content.nodes),
      body: PostBodyConverter(baseURL: baseURL).convert(content.nodes),
      editNote: content.editNote)
    return Scraped(
      post: post, explicitIndex: explicitIndex, lastSeenIndex: lastSeenIndex, showsRemoveFilter: removeFilter)
  }

  /// The post date is the last child node of `td.postdate` with text (after the `#`, `?` and seen-icon links).
  static func lastText(_ cell: RawNode) -> String? {
    var node = cell.lastChild
    while let current = node {
      let text = current.textContent.collapsingWhitespace
      if !text.isEmpty { return text }
      node = current.previousSibling
    }
    return nil
  }
}

/// The content part of a post body: the nodes between `<!-- BeginContentMarker -->` and `<!-- EndContentMarker -->`,
/// else the children of `div.complete_shit`, else every child; the edit note (`p.editedby`) is kept apart.
struct PostContent {
  var nodes: [HTMLNode]
  var editNote: String?

  init(nodes: [HTMLNode], editNote: String?) {
    self.nodes = nodes
    self.editNote = editNote
  }

  init(_ postBody: HTMLNode) {
    // Read on raw nodes (`postBody` keeps the page alive): this runs for every post, and only the nodes kept
    // become `HTMLNode`s.
    let body = postBody.raw
    let container = body.firstDescendant("div", class: "complete_shit") ?? body
    let isEditNote = { (node: RawNode) in node.isElement("p") && node.hasClassToken("editedby") }
    // Positions among the container's children: the first begin marker and the last end marker.
    var begin: Int?
    var end: Int?
    var editedBy: RawNode?
    var position = 0
    var child = container.firstChild
    while let current = child {
      if current.isComment {
        if begin == nil, current.contentContains("BeginContentMarker") { begin = position }
        if current.contentContains("EndContentMarker") { end = position }
      } else if editedBy == nil, isEditNote(current) {
        editedBy = current
      }
      position += 1
      child = current.nextSibling
    }
    var selected = 0..<position
    if let begin, let end, begin < end { selected = (begin + 1)..<end }

    // The edit note sits after the end marker, as a child of the body cell or of `div.complete_shit`.
    if let editedBy = editedBy ?? body.firstChild(where: isEditNote) {
      let text = editedBy.normalizedText
      editNote = text.isEmpty ? nil : text
    } else {
      editNote = nil
    }
    var kept: [HTMLNode] = []
    position = 0
    child = container.firstChild
    while let node = child, position < selected.upperBound {
      if position >= selected.lowerBound, !node.isComment, !isEditNote(node),
        !(node.isElement("div") && (node.hasClassToken("tail") || node.hasClassToken("userinfo")))
      {
        kept.append(postBody.node(node))
      }
      position += 1
      child = node.nextSibling
    }
    nodes = kept
  }
}
