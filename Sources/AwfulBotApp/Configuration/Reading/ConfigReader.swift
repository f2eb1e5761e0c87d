import BotCore
import ChatBridge

/// Reads a `JSONValue` tree key by key, collecting every problem as `key.path: reason` instead of stopping at the
/// first. Each accessor returns nil when the value is absent or unusable (the problem is already recorded).
package struct ConfigReader: Sendable {
  package private(set) var problems: [String] = []
  /// Paths already reported, so a later check does not pile a second message onto the same key.
  package private(set) var reportedPaths: Set<String> = []

  /// False for tools that only need the data directory (`status`, `export`, `migrate`): they must work in a shell
  /// that does not have the daemon's secrets.
  package var checksSecrets = true

  package init(checksSecrets: Bool = true) { self.checksSecrets = checksSecrets }

  package mutating func report(_ path: String, _ reason: String) {
    reportedPaths.insert(path)
    problems.append("\(path): \(reason)")
  }

  package func hasProblem(at path: String) -> Bool { reportedPaths.contains(path) }

  /// Keys starting with `_` (`"_comment"`) are notes for people and never read.
  package static func isComment(_ key: String) -> Bool { key.hasPrefix("_") }

  package static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  package mutating func required(_ members: [String: JSONValue], _ key: String, at path: String) -> JSONValue? {
    guard let value = members[key], value != .null else {
      report(Self.join(path, key), "missing")
      return nil
    }
    return value
  }

  package mutating func string(_ members: [String: JSONValue], _ key: String, at path: String, required: Bool = false)
    -> String?
  {
    let keyPath = Self.join(path, key)
    guard let value = required ? self.required(members, key, at: path) : members[key], value != .null else {
      return nil
    }
    guard case .string(let text) = value else {
      report(keyPath, "expected a string, got \(value.kindName)")
      return nil
    }
    return text
  }

  /// The largest magnitude of a number in the config: far above any real setting, and small enough that no
  /// conversion of it (`.seconds(…)`, milliseconds as Int64, `Int(…)`) can trap.
  package static let largestNumber: Double = 1e15

  package mutating func number(_ members: [String: JSONValue], _ key: String, at path: String) -> Double? {
    guard let value = members[key], value != .null else { return nil }
    guard case .number(let number) = value else {
      report(Self.join(path, key), "expected a number, got \(value.kindName)")
      return nil
    }
    guard abs(number) <= Self.largestNumber else {
      report(Self.join(path, key), "expected a number from -1e15 to 1e15, got \(number)")
      return nil
    }
    return number
  }

  package mutating func integer(_ members: [String: JSONValue], _ key: String, at path: String) -> Int? {
    guard let value = members[key], value != .null else { return nil }
    guard case .number(let number) = value else {
      report(Self.join(path, key), "expected a number, got \(value.kindName)")
      return nil
    }
    guard number.rounded() == number, abs(number) < 1e15 else {
      report(Self.join(path, key), "expected a whole number, got \(number)")
      return nil
    }
    return Int(number)
  }

  package mutating func bool(_ members: [String: JSONValue], _ key: String, at path: String) -> Bool? {
    guard let value = members[key], value != .null else { return nil }
    guard case .bool(let flag) = value else {
      report(Self.join(path, key), "expected true or false, got \(value.kindName)")
      return nil
    }
    return flag
  }

  package mutating func array(_ members: [String: JSONValue], _ key: String, at path: String) -> [JSONValue]? {
    guard let value = members[key], value != .null else { return nil }
    guard case .array(let items) = value else {
      report(Self.join(path, key), "expected a list, got \(value.kindName)")
      return nil
    }
    return items
  }

  package mutating func strings(_ members: [String: JSONValue], _ key: String, at path: String) -> [String]? {
    guard let items = array(members, key, at: path) else { return nil }
    var strings: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let text) = item else {
        report("\(Self.join(path, key))[\(index)]", "expected a string, got \(item.kindName)")
        continue
      }
      strings.append(text)
    }
    return strings
  }

  /// A secret: a string, or `{"env": "NAME"}`.
  package mutating func secret(_ members: [String: JSONValue], _ key: String, at path: String) -> SecretValue? {
    guard let value = members[key], value != .null else { return nil }
    switch SecretValue.written(value) {
    case .success(let secret): return secret
    case .failure(let problem):
      report(Self.join(path, key), problem.reason)
      return nil
    }
  }

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
