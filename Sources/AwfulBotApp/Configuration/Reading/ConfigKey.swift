import BotCore

/// Any key of a configuration object, for reading the keys a file has (an unknown one is reported) and the transport
/// options no section type declares.
struct ConfigKey: CodingKey, Hashable {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = "\(intValue)"
    self.intValue = intValue
  }
  init(_ key: some CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }

  /// `transports[1].sasl` for a decoder's coding path: list positions in brackets, keys joined with dots, as the
  /// problems name them.
  static func path(_ codingPath: [any CodingKey]) -> String {
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
}

extension ConfigKey {
  /// Keys starting with `_` (`"_comment"`) are notes for people and never read.
  static func isComment(_ key: String) -> Bool { key.hasPrefix("_") }

  /// `polling.bookmarksSeconds`: a key under a path, as problems name it.
  static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// The largest magnitude of a number in the config: far above any real setting, and small enough that no
  /// conversion of it (`.seconds(…)`, milliseconds as Int64, `Int(…)`) can trap.
  static let largestNumber: Double = 1e15

  /// ` (did you mean "key"?)` after an unknown key's problem, naming the known key it most likely meant; empty when
  /// none is close.
  static func didYouMean(_ key: String, in known: [String]) -> String {
    closest(to: key, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
  }

  /// The known key a misspelling most likely meant: same letters ignoring case, or at most two edits away.
  private static func closest(to key: String, in known: [String]) -> String? {
    if let sameLetters = known.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
    let scored = known.map { ($0, CommandSuggester.distance(key.lowercased(), $0.lowercased())) }
      .filter { $0.1 <= 2 }
    return scored.min { $0.1 < $1.1 }?.0
  }
}
