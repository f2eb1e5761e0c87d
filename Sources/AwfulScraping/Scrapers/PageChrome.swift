import ForumModel
import Foundation

/// Readers for the parts every list and thread page shares: breadcrumbs and page navigation.
enum PageChrome {
  /// Breadcrumb entries (docs/forum-protocol.md#breadcrumbs-and-page-navigation): the `forumdisplay.php` links of
  /// `div.breadcrumbs`, group first.
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
    // On raw nodes (`pages` keeps the page alive): a long thread lists every page number, twice a page.
    if let select = pages.raw.firstDescendant("select") {
      var count = 0
      var selected: RawNode?
      var total: Int?
      select.walkDescendants { node in
        guard node.isElement("option") else { return .descend }
        count += 1
        if selected == nil, node.hasAttribute("selected") { selected = node }
        if let value = optionNumber(node) { total = max(total ?? value, value) }
        return .descend
      }
      if count > 0 {
        let current = selected.flatMap(optionNumber) ?? 1
        return PageNavigation(current: current, total: max(total ?? count, count, current))
      }
    }
    return PageNavigation(current: 1, total: 1)
  }

  /// The page number of an `<option>`: its value, else its text.
  private static func optionNumber(_ option: RawNode) -> Int? {
    // Plain digits are read in place; anything else takes the string path (separators, spaces, signs).
    if let raw = option.rawAttribute("value") {
      var value = 0
      var i = 0
      while i < 18, raw[i] >= UInt8(ascii: "0"), raw[i] <= UInt8(ascii: "9") {
        value = value * 10 + Int(raw[i] - UInt8(ascii: "0"))
        i += 1
      }
      if i > 0, raw[i] == 0 { return Clamp.forumNumber(value) }
    }
    return int((option.attribute("value") ?? option.textContent).trimmed)
  }

  /// A count or page number from forum text: digits with optional thousands separators ("35,711"), brought into
  /// `0...Clamp.forumNumber` so no arithmetic on it (`+ 1`, `* 40`) can overflow.
  static func int(_ text: String) -> Int? {
    let cleaned = text.trimmed
    return (Int(cleaned) ?? Int(String(cleaned.filter { $0 != "," }))).map { Clamp.forumNumber($0) }
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
    // ASCII whitespace by bytes; only an edge that is not ASCII needs the scalar properties.
    var lower = bytes.startIndex
    var upper = bytes.endIndex
    while lower < upper, isASCIISpace(bytes[lower]) { lower = bytes.index(after: lower) }
    while upper > lower, isASCIISpace(bytes[bytes.index(before: upper)]) { upper = bytes.index(before: upper) }
    if lower == upper { return "" }
    if bytes[lower] < 0x80 && bytes[bytes.index(before: upper)] < 0x80 {
      return String(Substring(bytes[lower..<upper]))
    }
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    return String(scalars[start...end])
  }

  /// The range of `needle` in the string, by UTF-8 comparison (no Foundation).
  func utf8Range(of needle: String) -> Range<String.Index>? {
    // In place: `withUTF8` only copies a string that is not already contiguous UTF-8 (native strings are).
    var haystack = self
    var pattern = needle
    let offset = haystack.withUTF8 { haystack in pattern.withUTF8 { Self.firstOffset(of: $0, in: haystack) } }
    guard let offset else { return nil }
    let start = utf8.index(utf8.startIndex, offsetBy: offset)
    let end = utf8.index(start, offsetBy: needle.utf8.count)
    return start..<end
  }

  private static func firstOffset(of pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    guard let head = pattern.first, pattern.count <= haystack.count else { return nil }
    var i = 0
    while i + pattern.count <= haystack.count {
      if haystack[i] == head {
        var k = 1
        while k < pattern.count && haystack[i + k] == pattern[k] { k += 1 }
        if k == pattern.count { return i }
      }
      i += 1
    }
    return nil
  }
}
