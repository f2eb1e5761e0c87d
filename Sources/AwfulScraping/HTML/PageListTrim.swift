import ForumModel
import Foundation

/// Finds the page `<select>` that the late-2025 markup still puts in every `div.pages`, so it can be left out of the
/// parse.
///
/// Since late 2025 a page list carries its position as attributes, `<div class="pages" data-current-page="17"
/// data-total-pages="21" …>`, which is all `PageChrome.pageNavigation` reads; the `<select data-url="…">` inside it
/// still lists every page number, top and bottom. With 20,000 bookmarks that is 500 options twice on each of 500
/// bookmarks pages — more than a third of each page's bytes, and the reason a poll's CPU grew faster than its requests.
/// Only that `<select>` is dropped, and only inside a `div.pages` whose opening tag has both attributes as plain
/// numbers; any other markup (the older `<select>`-only page list, which is the page count there) parses as sent.
enum PageListTrim {
  /// The byte ranges to leave out, in order; empty when the page has nothing to trim.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    let marker = Array("data-total-pages=\"".utf8)
    var ranges: [Range<Int>] = []
    var from = 0
    while let hit = find(marker, anchor: 4, in: bytes, from: from, to: bytes.count) {
      from = hit + marker.count
      // The opening tag around the attribute: `<div`, a `pages` class, both attributes as numbers.
      guard let tagStart = lastIndex(of: UInt8(ascii: "<"), in: bytes, before: hit, within: 1024),
        let tagEnd = find(Array(">".utf8), in: bytes, from: hit, to: bytes.count),
        hasPrefix("<div", in: bytes, at: tagStart),
        find(Array("class=\"pages".utf8), in: bytes, from: tagStart, to: tagEnd) != nil,
        isNumber(in: bytes, at: hit + marker.count),
        let current = find(Array("data-current-page=\"".utf8), anchor: 4, in: bytes, from: tagStart, to: tagEnd),
        isNumber(in: bytes, at: current + "data-current-page=\"".utf8.count)
      else { continue }
      // The `<select data-url=…>…</select>` before the list's first `</div`: the list holds links, spans and the
      // select, no other element that could hide a `</div` or `</select>`.
      let end = find(Array("</div".utf8), anchor: 2, in: bytes, from: tagEnd, to: bytes.count) ?? bytes.count
      guard let selectStart = find(Array("<select".utf8), in: bytes, from: tagEnd, to: end),
        let selectTagEnd = find(Array(">".utf8), in: bytes, from: selectStart, to: end),
        find(Array("data-url=".utf8), anchor: 4, in: bytes, from: selectStart, to: selectTagEnd) != nil,
        let close = find(Array("</select>".utf8), anchor: 6, in: bytes, from: selectTagEnd, to: end)
      else { continue }
      ranges.append(selectStart..<(close + "</select>".utf8.count))
      from = close
    }
    return ranges
  }

  /// The bytes without `ranges`.
  static func removing(_ ranges: [Range<Int>], from bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count - ranges.reduce(0) { $0 + $1.count })
    var start = 0
    for range in ranges {
      kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<range.lowerBound]))
      start = range.upperBound
    }
    kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    return kept
  }

  /// The first index of `needle` in `bytes[from..<to]`: memchr for the needle's byte at `anchor`, then memcmp
  /// around it. Each search anchors on a byte that is rare where it looks: `-` in the attribute names (a third as
  /// common as `d` in the forum's pages), `d` in `</div` and `c` in `</select>` (no `<option>` has either, and a
  /// long page list has thousands of `<`). glibc's memmem is not visible to Swift without _GNU_SOURCE.
  private static func find(
    _ needle: [UInt8], anchor: Int = 0, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int
  ) -> Int? {
    guard let base = bytes.baseAddress, anchor < needle.count, from >= 0, to <= bytes.count else { return nil }
    return needle.withUnsafeBufferPointer { pattern -> Int? in
      var i = from + anchor
      let last = to - pattern.count + anchor  // the last place the anchor byte can be
      while i <= last {
        guard let hit = memchr(base + i, Int32(pattern[anchor]), last - i + 1) else { return nil }
        let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
        if memcmp(base + start, pattern.baseAddress!, pattern.count) == 0 { return start }
        i = start + anchor + 1
      }
      return nil
    }
  }

  private static func lastIndex(
    of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before index: Int, within limit: Int
  ) -> Int? {
    var i = index - 1
    while i >= max(0, index - limit) {
      if bytes[i] == byte { return i }
      i -= 1
    }
    return nil
  }

  private static func hasPrefix(_ prefix: String, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    var i = index
    for expected in prefix.utf8 {
      guard i < bytes.count else { return false }
      let byte = bytes[i]
      guard byte == expected || (byte >= 65 && byte <= 90 && byte + 32 == expected) else { return false }
      i += 1
    }
    return true
  }

  /// Digits, then the closing quote.
  private static func isNumber(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    var i = index
    while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
    return i > index && i < bytes.count && bytes[i] == UInt8(ascii: "\"")
  }
}
