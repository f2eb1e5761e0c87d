/// A `nick!user@host` pattern with `*` (any run) and `?` (one character), compared case-insensitively.
struct IRCHostmask: Sendable, Hashable {
  let pattern: [Character]

  init(_ pattern: String) {
    self.pattern = Array(IRCCaseMapping.fold(pattern))
  }

  static func looksLikeMask(_ entry: String) -> Bool {
    entry.contains("!") || entry.contains("@") || entry.contains("*") || entry.contains("?")
  }

  func matches(_ text: String) -> Bool {
    let text = Array(IRCCaseMapping.fold(text))
    // Iterative glob match with backtracking to the last `*`.
    var p = 0
    var t = 0
    var star: Int?
    var mark = 0
    while t < text.count {
      if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
        p += 1
        t += 1
      } else if p < pattern.count && pattern[p] == "*" {
        star = p
        mark = t
        p += 1
      } else if let s = star {
        p = s + 1
        mark += 1
        t = mark
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
