import Foundation

/// Readers for the parts every list and thread page shares: breadcrumbs and page navigation.
enum PageChrome {
  /// Breadcrumb entries (docs/forum-protocol.md §b.4): the `forumdisplay.php` links of `div.breadcrumbs`, group first.
  static func breadcrumbs(in container: HTMLNode?) -> [Breadcrumb] {
    guard let container else { return [] }
    let source = container.firstDescendant("span", class: "mainbodytextlarge") ?? container
    let links = source.descendants { $0.isElement("a") && $0.attribute("href", contains: "forumdisplay.php") }
    return links.enumerated().compactMap { depth, link in
      guard let href = link.attribute("href"), let id = LinkParsing.queryValue("forumid", in: href) else { return nil }
      return Breadcrumb(forumID: id, name: link.normalizedText, depth: depth)
    }
  }

  /// The thread link of the breadcrumbs (`a[href*='threadid']`), whose text is the thread title.
  static func threadLink(in container: HTMLNode?) -> HTMLNode? {
    container?.firstDescendant { $0.isElement("a") && $0.attribute("href", contains: "threadid") }
  }

  /// Current page and page count from `div.pages`: the data attributes of the 2025 markup first, then the older
  /// `<select>` (the selected option is the current page, the option count the total). A page list with neither
  /// (the one-page bookmarks page renders `<div class="pages">Pages </div>`), or no `div.pages` at all, is page 1
  /// of 1.
  static func pageNavigation(_ pages: HTMLNode?) -> PageNavigation {
    guard let pages else { return PageNavigation(current: 1, total: 1) }
    if let current = pages.attribute("data-current-page").flatMap(Self.int),
      let total = pages.attribute("data-total-pages").flatMap(Self.int)
    {
      return PageNavigation(current: max(current, 1), total: max(total, current, 1))
    }
    if let select = pages.firstDescendant("select") {
      let options = select.descendants("option")
      if !options.isEmpty {
        let selected = options.first(where: { $0.hasAttribute("selected") })
        let current = selected.flatMap { ($0.attribute("value") ?? $0.textContent).trimmed }.flatMap(Self.int) ?? 1
        let total = options.compactMap { ($0.attribute("value") ?? $0.textContent).trimmed }.compactMap(Self.int).max()
        return PageNavigation(current: current, total: max(total ?? options.count, options.count, current))
      }
    }
    return PageNavigation(current: 1, total: 1)
  }

  /// An integer from forum text: digits with optional thousands separators ("35,711").
  static func int(_ text: String) -> Int? {
    let cleaned = text.trimmed
    return Int(cleaned) ?? Int(String(cleaned.filter { $0 != "," }))
  }
}

extension String {
  /// Leading and trailing whitespace removed. Pure Swift: Foundation's `trimmingCharacters` bridges through
  /// NSString on Linux and was the scrapers' largest cost.
  var trimmed: String {
    let bytes = utf8
    guard let first = bytes.first, let last = bytes.last else { return self }
    func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    if !isASCIISpace(first) && !isASCIISpace(last) && first < 0x80 && last < 0x80 { return self }
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    return String(scalars[start...end])
  }

  /// The range of `needle` in the string, by UTF-8 comparison (no Foundation).
  func utf8Range(of needle: String) -> Range<String.Index>? {
    let haystack = Array(utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, pattern.count <= haystack.count else { return nil }
    var i = 0
    while i + pattern.count <= haystack.count {
      if haystack[i] == pattern[0] {
        var k = 1
        while k < pattern.count && haystack[i + k] == pattern[k] { k += 1 }
        if k == pattern.count {
          let start = utf8.index(utf8.startIndex, offsetBy: i)
          let end = utf8.index(start, offsetBy: pattern.count)
          return start..<end
        }
      }
      i += 1
    }
    return nil
  }
}
