import ChatBridge
import Foundation

/// The known command closest to a mistyped one (edit distance), when it is close enough to be a typo.
package enum CommandSuggester {
  package static func closest(to name: String, among names: [String]) -> String? {
    let scored = names.map { ($0, EditDistance.between(name, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let tolerance = max(1, min(3, name.count / 3))
    if best.1 <= tolerance { return best.0 }
    // "sub" → "subscribe": a prefix of a command is also a good guess.
    return names.first { name.count >= 3 && $0.hasPrefix(name) }
  }
}
