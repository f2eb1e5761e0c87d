import Foundation

/// Reads one object of a config file key by key through the decoder's typed accessors, keeping each problem with its
/// key and going on, so one read names them all. The one reader of config: the application's sections and every
/// transport's configuration read through it, so a value of the wrong shape is described the same way wherever it
/// is written.
///
/// Problems are kept in `problems` with their keys relative to the object (`nick`, `channels[1].key`), which a type
/// read on its own throws (`ConfigProblems`). Inside a whole configuration (a `ConfigProblemSink` in the decoder's
/// `userInfo`), each is also reported there at its full key path (`transports[2].nick`), in the order read.
package final class ConfigReader<Key: CodingKey> {
  /// Where the object is (`polling`, `rooms[2]`; empty at the top or when read on its own).
  package let path: String
  /// Where problems go besides `problems`; nil when the object is read on its own.
  package let sink: (any ConfigProblemSink)?
  /// False when the decoder was told secrets may be left out (`CodingUserInfoKey.secretsOptional`): a reader that only
  /// wants the settings (who may act) does not need the secrets the environment would give.
  package let secretsRequired: Bool
  /// The problems found, relative to the object.
  package private(set) var problems: [ConfigProblem] = []
  private let container: KeyedDecodingContainer<ConfigKey>

  /// Throws the decoder's error when the value is not an object (the caller says so where it stands).
  package init(_ decoder: any Decoder) throws {
    path = ConfigKey.path(decoder.codingPath)
    sink = decoder.userInfo[.configProblemSink] as? any ConfigProblemSink
    secretsRequired = decoder.userInfo[.secretsOptional] as? Bool != true
    container = try decoder.container(keyedBy: ConfigKey.self)
  }

  /// `key` under this object's path, as the whole configuration names it.
  package func at(_ key: String) -> String { ConfigKey.join(path, key) }
  package func at(_ key: Key) -> String { at(key.stringValue) }

  package func report(_ key: String, _ reason: String, suggestion: String? = nil) {
    let problem = ConfigProblem(key, reason, suggestion: suggestion)
    problems.append(problem)
    sink?.report(problem.under(path))
  }

  package func report(_ key: Key, _ reason: String) { report(key.stringValue, reason) }

  /// Problems a part read on its own found (a nested object's, `ConfigProblems`), their keys relative to this object.
  package func take(_ found: [ConfigProblem]) {
    for problem in found { report(problem.key, problem.reason, suggestion: problem.suggestion) }
  }

  package func hasProblem(_ key: String) -> Bool { problems.contains { $0.key == key } }
  package func hasProblem(_ key: Key) -> Bool { hasProblem(key.stringValue) }

  /// Every key written, notes (`_comment`) too.
  package var writtenKeys: [String] { container.allKeys.map(\.stringValue) }

  /// Keys written that `known` does not list, notes left out, each reported as `reason` with the known key it most
  /// likely meant.
  package func reportUnknownKeys(known: [String], reason: String = "unknown key", suggests: Bool = true) {
    for key in writtenKeys.sorted() where !known.contains(key) && !ConfigKey.isComment(key) {
      report(key, reason, suggestion: suggests ? ConfigKey.closest(to: key, in: known) : nil)
    }
  }

  /// Every member as written.
  package func members() -> [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    for key in container.allKeys { members[key.stringValue] = try? container.decode(JSONValue.self, forKey: key) }
    return members
  }

  /// The value as written, whatever its type; nil when absent or null.
  package func raw(_ key: Key) -> JSONValue? {
    guard let value = try? container.decodeIfPresent(JSONValue.self, forKey: ConfigKey(key)), value != .null else {
      return nil
    }
    return value
  }

  package func contains(_ key: Key) -> Bool { raw(key) != nil }

  /// Reports `missing` when the key is absent or null.
  @discardableResult
  package func require(_ key: Key) -> Bool {
    guard contains(key) else {
      report(key, "missing")
      return false
    }
    return true
  }

  /// Decodes with the decoder's own type check; a mismatch is reported as `expected <what>, got <kind>`.
  private func typed<T: Decodable>(_ type: T.Type, _ key: Key, expected: String) -> T? {
    do {
      return try container.decodeIfPresent(T.self, forKey: ConfigKey(key))
    } catch {
      report(key, "expected \(expected), got \(raw(key)?.kindName ?? "null")")
      return nil
    }
  }

  /// The value decoded as `T`, throwing as the decoder does (for a key that may be written in more than one way, or
  /// an object read by its own type).
  package func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    try container.decode(T.self, forKey: ConfigKey(key))
  }

  /// The value decoded as `T` when present, throwing as the decoder does.
  package func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
    try container.decodeIfPresent(T.self, forKey: ConfigKey(key))
  }

  package func string(_ key: Key, required: Bool = false) -> String? {
    if required, !require(key) { return nil }
    return typed(String.self, key, expected: "a string")
  }

  package func bool(_ key: Key) -> Bool? { typed(Bool.self, key, expected: "true or false") }

  /// A number within ±1e15 (`ConfigKey.largestNumber`): larger ones are reported, never turned into a duration or an
  /// integer, where they would stop the process (`.seconds(1e300)`, `Int64(1e300 * 1000)`).
  package func number(_ key: Key) -> Double? {
    guard let number = typed(Double.self, key, expected: "a number") else { return nil }
    guard abs(number) <= ConfigKey.largestNumber else {
      report(key, "expected a number from -1e15 to 1e15, got \(number)")
      return nil
    }
    return number
  }

  package func integer(_ key: Key) -> Int? {
    guard let number = typed(Double.self, key, expected: "a number") else { return nil }
    guard number.rounded() == number, abs(number) < ConfigKey.largestNumber else {
      report(key, "expected a whole number, got \(number)")
      return nil
    }
    return Int(number)
  }

  /// The items of a list as written.
  package func list(_ key: Key) -> [JSONValue]? { typed([JSONValue].self, key, expected: "a list") }

  /// A list of strings; each item that is not one is reported at its position, and then nil (the default taken:
  /// checks of the others would name positions that moved).
  package func strings(_ key: Key) -> [String]? {
    guard let items = list(key) else { return nil }
    var strings: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let text) = item else {
        report("\(key.stringValue)[\(index)]", "expected a string, got \(item.kindName)")
        continue
      }
      strings.append(text)
    }
    return strings.count == items.count ? strings : nil
  }

  /// One of a fixed set of words (`relayAs`, `relayStyle`).
  package func choice<T: RawRepresentable>(_ key: Key, expected: String) -> T? where T.RawValue == String {
    guard let text = string(key) else { return nil }
    guard let chosen = T(rawValue: text) else {
      report(key, "expected \(expected), got \"\(text)\"")
      return nil
    }
    return chosen
  }

  /// An object of names to values (`roleOverrides`, `images.rooms`): each value read by `read`, which says why it
  /// is not one (the entry is then reported at `key.name` and left out). Notes (`_comment`) are read like any entry
  /// unless `skipsNotes`. nil when absent; when not an object, reported with `expected`.
  package func entries<Value>(
    _ key: Key, expected: String, skipsNotes: Bool = false, _ read: (JSONValue) -> Result<Value, ConfigProblem>
  ) -> [String: Value]? {
    guard let value = raw(key) else { return nil }
    guard case .object(let written) = value else {
      report(key, "\(expected), got \(value.kindName)")
      return nil
    }
    var entries: [String: Value] = [:]
    for (name, item) in written.sorted(by: { $0.key < $1.key }) where !(skipsNotes && ConfigKey.isComment(name)) {
      switch read(item) {
      case .success(let entry): entries[name] = entry
      case .failure(let problem): report("\(key.stringValue).\(name)", problem.reason)
      }
    }
    return entries
  }

  /// An object of its own type (`encryption`, `images`), read by its own reader: its problems are kept under this
  /// key (reported into the sink by that reader when there is one, taken here when it was read on its own). nil when
  /// absent or not readable; when not an object, reported with `expected`.
  package func nested<T: Decodable>(_ key: Key, expected: String) -> T? {
    guard let value = raw(key) else { return nil }
    guard case .object = value else {
      report(key, "\(expected), got \(value.kindName)")
      return nil
    }
    do {
      return try container.decode(T.self, forKey: ConfigKey(key))
    } catch let error as any ConfigProblems {
      let found = error.keyedProblems.map { $0.under(key.stringValue) }
      // With a sink, the nested reader has reported them there already.
      if sink == nil { take(found) } else { problems += found }
    } catch {
      report(key, "\(error)")
    }
    return nil
  }
}
