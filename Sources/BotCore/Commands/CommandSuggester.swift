import ChatBridge
import Foundation

/// The known command closest to a mistyped one (edit distance), when it is close enough to be a typo.
package enum CommandSuggester {
  package static func closest(to name: String, among names: [String]) -> String? {
    let scored = names.map { ($0, distance(name, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let tolerance = max(1, min(3, name.count / 3))
    if best.1 <= tolerance { return best.0 }
    // "sub" → "subscribe": a prefix of a command is also a good guess.
    return names.first { name.count >= 3 && $0.hasPrefix(name) }
  }

  /// Levenshtein distance: the fewest single-character insertions, deletions and substitutions from one to the
  /// other (also what config key suggestions use).
  package static func distance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs)
    let b = Array(rhs)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
