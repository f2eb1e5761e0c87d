import Foundation

/// Reads one `table.post` (docs/forum-protocol.md §b.2) with a single walk over its subtree. The post's index in the
/// thread is left to the page scraper, which knows the neighbours; this returns what the post itself says.
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
    var postBody: HTMLNode?
    var postDate: HTMLNode?
    var seen = false
    var editable = false
    var canMessage = false
    var lastSeenIndex: Int?
    var removeFilter = false

    table.walkDescendants { node in
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
    let content = postBody.map(PostContent.init) ?? PostContent(nodes: [], editNote: nil)
    let explicitIndex = table.attribute("data-idx").flatMap { Int($0.trimmed) }

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
  static func lastText(_ cell: HTMLNode) -> String? {
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
    var container = postBody
    if let shit = postBody.firstDescendant("div", class: "complete_shit") { container = shit }
    let children = container.children
    var begin: Int?
    var end: Int?
    for (index, child) in children.enumerated() where child.isComment {
      if begin == nil, child.contentContains("BeginContentMarker") { begin = index }
      if child.contentContains("EndContentMarker") { end = index }
    }
    var selected: ArraySlice<HTMLNode> = children[...]
    if let begin, let end, begin < end { selected = children[(begin + 1)..<end] }

    var note: String?
    // The edit note sits after the end marker, as a child of the body cell or of `div.complete_shit`.
    let isEditNote = { (node: HTMLNode) in node.isElement("p") && node.hasClassToken("editedby") }
    let editedBy = children.first(where: isEditNote) ?? postBody.firstChild(where: isEditNote)
    if let editedBy {
      let text = editedBy.normalizedText
      note = text.isEmpty ? nil : text
    }
    nodes = selected.filter { node in
      if node.isComment { return false }
      if node.isElement("p") && node.hasClassToken("editedby") { return false }
      if node.isElement("div") && (node.hasClassToken("tail") || node.hasClassToken("userinfo")) { return false }
      return true
    }
    editNote = note
  }
}
