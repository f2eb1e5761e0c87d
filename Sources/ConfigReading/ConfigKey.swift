/// Any key of a configuration object (for reading the keys a file has, an unknown one reported), and how key paths
/// are written in problems.
package struct ConfigKey: CodingKey, Hashable, Sendable {
  package var stringValue: String
  package var intValue: Int?

  package init(stringValue: String) { self.stringValue = stringValue }
  package init(intValue: Int) {
    self.stringValue = "\(intValue)"
    self.intValue = intValue
  }
  package init(_ key: some CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }

  /// `transports[1].sasl` for a decoder's coding path: list positions in brackets, keys joined with dots, as the
  /// problems name them.
  package static func path(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path = join(path, key.stringValue)
      }
    }
    return path
  }

  /// `polling.bookmarksSeconds`: a key under a path.
  package static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// Keys starting with `_` (`"_comment"`) are notes for people and never read.
  package static func isComment(_ key: String) -> Bool { key.hasPrefix("_") }

  /// The largest magnitude of a number in the config: far above any real setting, and small enough that no
  /// conversion of it (`.seconds(…)`, milliseconds as Int64, `Int(…)`) can trap.
  package static let largestNumber: Double = 1e15

  /// The known key a misspelling most likely meant: same letters ignoring case, or at most two edits away.
  package static func closest(to key: String, in known: [String]) -> String? {
    if let sameLetters = known.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
    let scored = known.map { ($0, EditDistance.between(key.lowercased(), $0.lowercased())) }.filter { $0.1 <= 2 }
    return scored.min { $0.1 < $1.1 }?.0
  }
}
