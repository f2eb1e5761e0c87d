import Foundation

/// Reads a transport's configuration key by key through the decoder's typed accessors, keeping each problem with its
/// key and going on, so one read names them all. Shared by the transports (IRC, Matrix) so a value of the wrong shape
/// is described the same way whichever transport it is written for.
package struct OptionReader<Key: CodingKey> {
  private let container: KeyedDecodingContainer<Key>
  /// The object as written, for what the typed accessors cannot see (keys the type does not know).
  private let members: [String: JSONValue]
  package var problems: [OptionProblem] = []
  /// False when the decoder was told secrets may be left out (`CodingUserInfoKey.secretsOptional`): a reader that
  /// only wants the settings (who may act) does not need the secrets the environment would give.
  package let secretsRequired: Bool

  package init(_ decoder: any Decoder) throws {
    container = try decoder.container(keyedBy: Key.self)
    members = (try? decoder.singleValueContainer().decode(JSONValue.self))?.objectValue ?? [:]
    secretsRequired = decoder.userInfo[.secretsOptional] as? Bool != true
  }

  /// The value as written; nil when absent or null.
  package func raw(_ key: Key) -> JSONValue? {
    guard let value = try? container.decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
    return value
  }

  package mutating func report(_ key: String, _ reason: String) { problems.append(.init(key, reason)) }

  /// Keys written that `known` does not list, notes (`_comment`) left out; `reason` names the known ones.
  package mutating func reportUnknownKeys(known: [String], reason: String) {
    for key in members.keys.sorted() where !known.contains(key) && !key.hasPrefix("_") { report(key, reason) }
  }

  private mutating func value<T: Decodable>(_ key: Key, expected: String) -> T? {
    do {
      return try container.decodeIfPresent(T.self, forKey: key)
    } catch {
      report(key.stringValue, "expected \(expected), got \(raw(key)?.kindName ?? "null")")
      return nil
    }
  }

  package mutating func string(_ key: Key) -> String? { value(key, expected: "a string") }

  package mutating func requiredString(_ key: Key) -> String? {
    guard raw(key) != nil else {
      report(key.stringValue, "missing")
      return nil
    }
    return string(key)
  }

  package mutating func bool(_ key: Key) -> Bool? { value(key, expected: "true or false") }
  /// A number within ±1e15, as the app's config readers take them: a larger one is reported by its key, never turned
  /// into a duration (`.seconds(1e300)` and `Int64(1e300 * 1000)` trap).
  package mutating func number(_ key: Key) -> Double? {
    guard let number: Double = value(key, expected: "a number") else { return nil }
    guard abs(number) <= 1e15 else {
      report(key.stringValue, "expected a number from -1e15 to 1e15, got \(number)")
      return nil
    }
    return number
  }

  package mutating func integer(_ key: Key) -> Int? {
    guard let number: Double = value(key, expected: "a number") else { return nil }
    guard number.rounded() == number, abs(number) < 1e15 else {
      report(key.stringValue, "expected a whole number, got \(number)")
      return nil
    }
    return Int(number)
  }

  /// A list of strings; nil (the default taken) when it is not one or an item is not a string.
  package mutating func strings(_ key: Key) -> [String]? {
    guard let items: [JSONValue] = value(key, expected: "a list") else { return nil }
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
  package mutating func choice<T: RawRepresentable>(_ key: Key, expected: String) -> T? where T.RawValue == String {
    guard let text = string(key) else { return nil }
    guard let chosen = T(rawValue: text) else {
      report(key.stringValue, "expected \(expected), got \"\(text)\"")
      return nil
    }
    return chosen
  }

  /// An object of names to values (`roleOverrides`, `images.rooms`): each value read by `read`, which says why it
  /// is not one (the entry is then reported at `key.name` and left out). Notes (`_comment`) are read like any entry
  /// unless `skipsNotes`. nil when absent; when not an object, reported with `expected`.
  package mutating func entries<Value>(
    _ key: Key, expected: String, skipsNotes: Bool = false, _ read: (JSONValue) -> Result<Value, EntryProblem>
  ) -> [String: Value]? {
    guard let value = raw(key) else { return nil }
    guard case .object(let written) = value else {
      report(key.stringValue, "\(expected), got \(value.kindName)")
      return nil
    }
    var entries: [String: Value] = [:]
    for (name, item) in written.sorted(by: { $0.key < $1.key }) where !(skipsNotes && name.hasPrefix("_")) {
      switch read(item) {
      case .success(let entry): entries[name] = entry
      case .failure(let problem): report("\(key.stringValue).\(name)", problem.reason)
      }
    }
    return entries
  }

  /// Why an entry of `entries` cannot be read.
  package struct EntryProblem: Error {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
  }

  /// An object of its own type (`encryption`, `images`), whose decoding names its problems (`OptionProblems`): they
  /// are kept under this key. nil when absent or not readable; when not an object, reported with `expected`.
  package mutating func nested<T: Decodable>(_ key: Key, expected: String) -> T? {
    guard let value = raw(key) else { return nil }
    guard case .object = value else {
      report(key.stringValue, "\(expected), got \(value.kindName)")
      return nil
    }
    do {
      return try container.decode(T.self, forKey: key)
    } catch let error as any OptionProblems {
      problems += error.keyedProblems.map { $0.under(key.stringValue) }
    } catch {
      report(key.stringValue, "\(error)")
    }
    return nil
  }
}
