import ChatBridge
import Foundation

/// Reads one configuration section (an object) inside its `init(from:)`: each value through the decoder's typed
/// accessors, every problem reported as `key.path: reason` and reading going on, so one pass finds them all. The keys
/// the section takes are its `CodingKeys`; any other key in the file is reported with the closest known key as a
/// hint, because a misspelt key silently ignored is a setting that does not apply.
struct SectionReader<Key: CodingKey & CaseIterable> {
  /// Where the section is (`polling`, `rooms[2]`; empty at the top level).
  let path: String
  let context: ConfigurationReadContext
  private let container: KeyedDecodingContainer<ConfigKey>
  /// True when the section is decoded on its own: `finish()` then throws what was found.
  private let ownsContext: Bool

  /// Reads the section's keys; throws `ConfigurationSkip` (the problem reported) when it is not an object.
  /// `reportsUnknownKeys` false: the section's type checks the other keys itself (a transport's, by its kind).
  init(_ decoder: any Decoder, keys: Key.Type = Key.self, reportsUnknownKeys: Bool = true) throws {
    let shared = ConfigurationReadContext.of(decoder)
    context = shared ?? ConfigurationReadContext(environment: ProcessInfo.processInfo.environment)
    ownsContext = shared == nil
    path = ConfigKey.path(decoder.codingPath)
    do {
      container = try decoder.container(keyedBy: ConfigKey.self)
    } catch {
      let found = (try? decoder.singleValueContainer().decode(JSONValue.self))?.kindName ?? "something else"
      context.report(path.isEmpty ? "(top level)" : path, "expected an object, got \(found)")
      if ownsContext { throw ConfigurationError(problems: context.problems) }
      throw ConfigurationSkip()
    }
    guard reportsUnknownKeys else { return }
    let known = Key.allCases.map(\.stringValue)
    for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) && !ConfigKey.isComment(key) {
      let hint = ConfigKey.didYouMean(key, in: known)
      context.report(at(key), "unknown key\(hint)")
    }
  }

  /// Throws the problems found when the section was decoded on its own; in a whole configuration they are the
  /// configuration's.
  func finish() throws {
    if ownsContext, !context.problems.isEmpty { throw ConfigurationError(problems: context.problems) }
  }

  func at(_ key: String) -> String { ConfigKey.join(path, key) }
  func at(_ key: Key) -> String { at(key.stringValue) }

  func report(_ key: Key, _ reason: String) { context.report(at(key), reason) }
  /// A problem with the section as a whole (two keys that go together).
  func reportSection(_ reason: String) { context.report(path, reason) }
  func hasProblem(_ key: Key) -> Bool { context.hasProblem(at: at(key)) }

  /// Reports a room or role that names a transport the configuration does not have (one of an unknown type counts as
  /// had: it was reported where it is).
  func checkTransport(_ key: Key, named name: String?) {
    guard let name, let names = context.transportNames, !names.contains(name) else { return }
    report(key, "no transport named \"\(name)\"")
  }

  /// Every member as written (a transport's own keys, which its kind checks).
  func members() -> [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    for key in container.allKeys {
      members[key.stringValue] = try? container.decode(JSONValue.self, forKey: key)
    }
    return members
  }

  /// The value as written, whatever its type; nil when absent or null.
  func raw(_ key: Key) -> JSONValue? {
    guard let value = try? container.decodeIfPresent(JSONValue.self, forKey: ConfigKey(key)), value != .null else {
      return nil
    }
    return value
  }

  func contains(_ key: Key) -> Bool { raw(key) != nil }

  /// Reports `missing` when the key is absent or null.
  @discardableResult
  func require(_ key: Key) -> Bool {
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

  func string(_ key: Key, required: Bool = false) -> String? {
    if required, !require(key) { return nil }
    return typed(String.self, key, expected: "a string")
  }

  /// A number within ±1e15 (`ConfigKey.largestNumber`): larger ones are reported, never turned into a duration or
  /// an integer, where they would stop the process (`.seconds(1e300)`).
  func number(_ key: Key) -> Double? {
    guard let number = typed(Double.self, key, expected: "a number") else { return nil }
    guard abs(number) <= ConfigKey.largestNumber else {
      report(key, "expected a number from -1e15 to 1e15, got \(number)")
      return nil
    }
    return number
  }

  func integer(_ key: Key) -> Int? {
    guard let number = typed(Double.self, key, expected: "a number") else { return nil }
    guard number.rounded() == number, abs(number) < 1e15 else {
      report(key, "expected a whole number, got \(number)")
      return nil
    }
    return Int(number)
  }

  /// The value decoded as `T`, throwing as the decoder does (for a key that may be written in more than one way).
  func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    try container.decode(T.self, forKey: ConfigKey(key))
  }

  func timeZone(_ key: Key) -> TimeZone? {
    guard let text = string(key) else { return nil }
    guard let zone = TimeZone(identifier: text) else {
      report(key, "unknown time zone \"\(text)\"")
      return nil
    }
    return zone
  }

  func bool(_ key: Key) -> Bool? { typed(Bool.self, key, expected: "true or false") }

  /// A list; each item that is not a string is reported at its position and left out.
  func strings(_ key: Key) -> [String]? {
    guard let items = list(key) else { return nil }
    var strings: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let text) = item else {
        context.report("\(at(key))[\(index)]", "expected a string, got \(item.kindName)")
        continue
      }
      strings.append(text)
    }
    return strings
  }

  /// The items of a list as written (for items read by hand: the Matrix and IRC options stay trees).
  func list(_ key: Key) -> [JSONValue]? { typed([JSONValue].self, key, expected: "a list") }

  /// A secret: a string, or `{"env": "NAME"}`. Its value never appears in a problem.
  func secret(_ key: Key) -> SecretValue? {
    guard let value = raw(key) else { return nil }
    switch SecretValue.written(value) {
    case .success(let secret): return secret
    case .failure(let problem):
      report(key, problem.reason)
      return nil
    }
  }

  /// A nested section read by its own type; nil when absent or not an object (already reported).
  func section<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool = false) -> T? {
    if required, !require(key) { return nil }
    return decodeReporting { try container.decodeIfPresent(T.self, forKey: ConfigKey(key)) } ?? nil
  }

  /// A list of sections, each item read by its own type; nil when absent or not a list. An item that could not be
  /// read at all is left out (its problem is reported).
  func sections<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool = false) -> [T]? {
    if required, !require(key) { return nil }
    guard list(key) != nil else { return nil }
    let items = decodeReporting { try container.decode([ConfigurationItem<T>].self, forKey: ConfigKey(key)) } ?? []
    for item in items { context.append(item.problems) }
    return items.compactMap(\.value)
  }

  /// A value decoded where problems are the context's: a section decoded on its own throws them as a
  /// `ConfigurationError`, taken here; a skipped one was already reported.
  private func decodeReporting<T>(_ decode: () throws -> T) -> T? {
    do {
      return try decode()
    } catch let error as ConfigurationError {
      context.append(error.problems)
      return nil
    } catch {
      if !(error is ConfigurationSkip) { reportSection("\(error)") }
      return nil
    }
  }
}
