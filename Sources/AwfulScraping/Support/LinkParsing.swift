import ForumModel
import Foundation

/// Small readers for the forum's links and ids. Hrefs come out of libxml2 with entities decoded (`&amp;` is `&`).
enum LinkParsing {
  /// The value of query parameter `name` in `href` (`userid` in `member.php?action=getinfo&userid=27691`).
  /// Reads raw text rather than building a `URL`, because forum hrefs are not always valid URLs.
  static func queryValue(_ name: String, in href: String) -> String? {
    // On the bytes in place: this runs for several links of every post.
    var href = href
    var name = name
    let found = href.withUTF8 { bytes in name.withUTF8 { key in rawQueryValue(key, in: bytes) } }
    guard let value = found else { return nil }
    guard value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return value }
    let spaced = String(value.map { $0 == "+" ? " " : $0 })
    return spaced.removingPercentEncoding ?? spaced
  }

  /// The undecoded value of the first `key=` pair of the query (between `?` and `#`).
  private static func rawQueryValue(_ key: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> String?
  {
    guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
    var end = question + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "#") { end += 1 }
    var start = question + 1
    while start < end {
      var pairEnd = start
      while pairEnd < end, bytes[pairEnd] != UInt8(ascii: "&") { pairEnd += 1 }
      var equals = start
      while equals < pairEnd, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
      if bytes[start..<equals].elementsEqual(key) {
        let valueStart = equals < pairEnd ? equals + 1 : pairEnd
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<pairEnd]), as: UTF8.self)
      }
      start = pairEnd < end ? pairEnd + 1 : end
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
