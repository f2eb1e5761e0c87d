import Foundation

/// Small readers for the forum's links and ids. Hrefs come out of libxml2 with entities decoded (`&amp;` is `&`).
enum LinkParsing {
  /// The value of query parameter `name` in `href` (`userid` in `member.php?action=getinfo&userid=27691`).
  /// Reads raw text rather than building a `URL`, because forum hrefs are not always valid URLs.
  static func queryValue(_ name: String, in href: String) -> String? {
    let bytes = href.utf8
    guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
    let end = bytes[question...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
    let key = name.utf8
    var start = bytes.index(after: question)
    while start < end {
      let pairEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
      let equals = bytes[start..<pairEnd].firstIndex(of: UInt8(ascii: "=")) ?? pairEnd
      if bytes[start..<equals].elementsEqual(key) {
        let valueStart = equals < pairEnd ? bytes.index(after: equals) : pairEnd
        let value = String(Substring(bytes[valueStart..<pairEnd]))
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return value }
        let spaced = String(value.map { $0 == "+" ? " " : $0 })
        return spaced.removingPercentEncoding ?? spaced
      }
      start = pairEnd < end ? bytes.index(after: pairEnd) : end
    }
    return nil
  }

  /// The fragment of `href` (`373` in `…/tava-vintage.gif#373`).
  static func fragment(of href: String) -> String? {
    guard let hash = href.lastIndex(of: "#") else { return nil }
    let value = href[href.index(after: hash)...]
    return value.isEmpty ? nil : String(value)
  }

  /// Last path component without its extension, ignoring query and fragment (`tava-vintage`).
  static func imageName(from src: String) -> String {
    let bytes = src.utf8
    let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? bytes.endIndex
    var path = bytes[..<end]
    while let last = path.last, last == UInt8(ascii: "/") { path = path.dropLast() }
    let start = path.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? path.startIndex
    let name = path[start...]
    let stem = name.lastIndex(of: UInt8(ascii: ".")).map { name[..<$0] } ?? name
    return String(Substring(stem))
  }

  /// The decimal digits that follow `prefix` in `text` (`post407741839` → `407741839`, `userid-186533` → …).
  static func digits(after prefix: String, in text: String) -> String? {
    guard let range = text.utf8Range(of: prefix) else { return nil }
    let tail = text.utf8[range.upperBound...]
    let end = tail.firstIndex(where: { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") }) ?? tail.endIndex
    guard end > tail.startIndex else { return nil }
    return String(Substring(tail[..<end]))
  }

  /// Every run of decimal digits (with decimal points) in `text`, in order: `159 votes - 4.79 average` → 159, 4.79.
  static func numbers(in text: String) -> [Substring] {
    var out: [Substring] = []
    let bytes = text.utf8
    var index = bytes.startIndex
    func isNumeric(_ byte: UInt8) -> Bool { (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ".") }
    while index < bytes.endIndex {
      guard isNumeric(bytes[index]) else {
        index = bytes.index(after: index)
        continue
      }
      let start = index
      while index < bytes.endIndex, isNumeric(bytes[index]) { index = bytes.index(after: index) }
      let run = bytes[start..<index]
      if run.contains(where: { $0 != UInt8(ascii: ".") }) { out.append(Substring(run)) }
    }
    return out
  }

  /// `href` resolved against the page URL (or the forum's base URL), as an absolute string. Protocol-relative
  /// links (`//i.somethingawful.com/…`) get https. Returns `href` unchanged when it cannot be resolved.
  static func absolute(_ href: String, base: URL?) -> String {
    let trimmed = href.trimmed
    if trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") { return trimmed }
    let base = base ?? forumBaseURL
    if let resolved = URL(string: trimmed, relativeTo: base)?.absoluteString { return resolved }
    let escaped = trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? trimmed
    return URL(string: escaped, relativeTo: base)?.absoluteString ?? trimmed
  }

  static let forumBaseURL = URL(string: "https://forums.somethingawful.com/")!
}
