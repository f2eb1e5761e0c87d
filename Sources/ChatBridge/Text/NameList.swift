import Foundation

/// "A, B and C" / "A, B, C and 4 others": author lists short enough for one chat line.
package enum NameList {
  package static func format(_ names: [String], shown: Int = 3) -> String {
    var seen = Set<String>()
    let unique = names.map(ChatText.safeLine).filter { !$0.isEmpty && seen.insert($0).inserted }
    switch unique.count {
    case 0: return ""
    case 1: return unique[0]
    case ...shown: return unique.dropLast().joined(separator: ", ") + " and " + unique[unique.count - 1]
    default:
      let rest = unique.count - shown
      return unique.prefix(shown).joined(separator: ", ") + " and \(rest) other\(rest == 1 ? "" : "s")"
    }
  }

  /// "1 post" / "3 posts".
  package static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// The same for a noun whose plural is not `noun + "s"` (`reply`, `replies`).
  package static func count(_ count: Int, _ noun: String, plural: String) -> String {
    "\(count) \(count == 1 ? noun : plural)"
  }
}
