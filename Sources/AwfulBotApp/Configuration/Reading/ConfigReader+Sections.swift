import ChatBridge
import Foundation

/// The application's config sections, each read inside its `init(from:)` by a `ConfigReader`: what only the
/// application knows (its read context, secrets, time zones, transport names) and sections nested in sections.
extension ConfigReader where Key: CaseIterable {
  /// The reader of one section (an object). Not an object: reported where it stands, and `ConfigurationSkip` thrown
  /// (its parent goes on without it; read on its own, the `ConfigurationError`). The keys the section takes are its
  /// `CodingKeys`; any other key in the file is reported with the closest known key as a hint, because a misspelt key
  /// silently ignored is a setting that does not apply. `reportsUnknownKeys` false: the section checks them itself.
  static func section(_ decoder: any Decoder, reportsUnknownKeys: Bool = true) throws -> ConfigReader<Key> {
    let reader: ConfigReader<Key>
    do {
      reader = try ConfigReader(decoder)
    } catch {
      let path = ConfigKey.path(decoder.codingPath)
      let found = (try? decoder.singleValueContainer().decode(JSONValue.self))?.kindName ?? "something else"
      let problem = ConfigProblem(path.isEmpty ? "(top level)" : path, "expected an object, got \(found)")
      guard let sink = decoder.userInfo[.configProblemSink] as? any ConfigProblemSink else {
        throw ConfigurationError([problem])
      }
      sink.report(problem)
      throw ConfigurationSkip()
    }
    if reportsUnknownKeys { reader.reportUnknownKeys(known: Key.allCases.map(\.stringValue)) }
    return reader
  }
}

extension ConfigReader {
  /// What the whole read shares (the environment, whether secrets are checked, the transports read so far); a
  /// section read on its own has the process's environment and no transports to check names against.
  var context: ConfigurationReadContext {
    sink as? ConfigurationReadContext ?? ConfigurationReadContext(environment: ProcessInfo.processInfo.environment)
  }

  /// Throws the problems found when the section was read on its own; in a whole configuration they are already the
  /// configuration's.
  func finish() throws {
    if sink == nil, !problems.isEmpty { throw ConfigurationError(problems.map { $0.under(path) }) }
  }

  /// A problem at a full key path under this section (`rooms[2].subscriptions[1]`).
  func report(atPath fullPath: String, _ reason: String) {
    report(relative(fullPath), reason)
  }

  /// A problem with the section as a whole (two keys that go together).
  func reportSection(_ reason: String) { report("", reason) }

  /// `subscriptions[1]` for `rooms[2].subscriptions[1]` read in `rooms[2]`.
  private func relative(_ fullPath: String) -> String {
    guard !path.isEmpty, fullPath.hasPrefix(path) else { return fullPath }
    let rest = fullPath.dropFirst(path.count)
    return String(rest.hasPrefix(".") ? rest.dropFirst() : rest)
  }

  /// Reports a room or role that names a transport the configuration does not have (one of an unknown type counts as
  /// had: it was reported where it is).
  func checkTransport(_ key: Key, named name: String?) {
    guard let name, let names = context.transportNames, !names.contains(name) else { return }
    report(key, "no transport named \"\(name)\"")
  }

  func timeZone(_ key: Key) -> TimeZone? {
    guard let text = string(key) else { return nil }
    guard let zone = TimeZone(identifier: text) else {
      report(key, "unknown time zone \"\(text)\"")
      return nil
    }
    return zone
  }

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
    return decodeReporting { try decodeIfPresent(T.self, key) } ?? nil
  }

  /// A list of sections, each item read by its own type; nil when absent or not a list. An item that could not be
  /// read at all is left out (its problem is reported).
  func sections<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool = false) -> [T]? {
    if required, !require(key) { return nil }
    guard list(key) != nil else { return nil }
    let items = decodeReporting { try decode([ConfigurationItem<T>].self, key) } ?? []
    for item in items { takeFullPaths(item.problems) }
    return items.compactMap(\.value)
  }

  /// A value decoded where problems are the context's: a section read on its own throws them as a
  /// `ConfigurationError`, taken here; a skipped one was already reported.
  private func decodeReporting<T>(_ decode: () throws -> T) -> T? {
    do {
      return try decode()
    } catch let error as ConfigurationError {
      takeFullPaths(error.found)
      return nil
    } catch {
      if !(error is ConfigurationSkip) { reportSection("\(error)") }
      return nil
    }
  }

  /// Problems a section read on its own found, at full key paths.
  private func takeFullPaths(_ found: [ConfigProblem]) {
    for problem in found { report(relative(problem.key), problem.reason, suggestion: problem.suggestion) }
  }
}
