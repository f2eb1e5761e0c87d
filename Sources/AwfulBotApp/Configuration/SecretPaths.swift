import ChatBridge

/// Secrets inside a transport's keys as written: `{"env": "NAME"}` resolved anywhere, and values read or set at a
/// dotted key path (`sasl.password`).
enum SecretPaths {
  /// The members with every `{"env": "NAME"}` replaced by the variable's value. One not set is reported at its key
  /// path (relative to `members`) and left out; where secrets are not checked (`status`) it reads as empty.
  static func resolved(
    _ members: [String: JSONValue], checksSecrets: Bool, environment: [String: String],
    report: (_ key: String, _ reason: String) -> Void
  ) -> [String: JSONValue] {
    func resolve(_ value: JSONValue, at path: String) -> JSONValue {
      switch value {
      case .object(let inner):
        if inner.count == 1, case .string(let variable)? = inner["env"] {
          let secret = SecretValue(environment: variable)
          if let resolved = secret.resolve(environment: environment) { return .string(resolved) }
          guard checksSecrets else { return .string("") }
          report(path, "\(secret) is not set")
          return .null
        }
        return .object(inner.reduce(into: [:]) { $0[$1.key] = resolve($1.value, at: ConfigKey.join(path, $1.key)) })
      case .array(let items):
        return .array(items.enumerated().map { resolve($1, at: "\(path)[\($0)]") })
      default:
        return value
      }
    }
    var out: [String: JSONValue] = [:]
    for (key, value) in members.sorted(by: { $0.key < $1.key }) { out[key] = resolve(value, at: key) }
    return out
  }

  /// The secret keys as the entry writes them: a `*` part (`rooms.*.webhook`) stands for every key of the object
  /// there, so each room's secret has its own path (`rooms.general.webhook`). Keys without `*` stay as they are.
  static func expanded(_ keys: [String], in members: [String: JSONValue]) -> [String] {
    keys.flatMap { key -> [String] in
      let parts = key.split(separator: ".").map(String.init)
      guard let star = parts.firstIndex(of: "*") else { return [key] }
      let prefix = Array(parts[..<star])
      guard case .object(let inner)? = value(at: prefix, in: .object(members)) else { return [] }
      let rest = parts[(star + 1)...].joined(separator: ".")
      return expanded(
        inner.keys.filter { !ConfigKey.isComment($0) }.sorted().map {
          (prefix + [$0]).joined(separator: ".") + (rest.isEmpty ? "" : ".\(rest)")
        }, in: members)
    }
  }

  /// The value at `parts`; nil when absent or null.
  static func value(at parts: [String], in json: JSONValue) -> JSONValue? {
    var current: JSONValue? = json
    for part in parts { current = current?[part] }
    return current == .null ? nil : current
  }

  /// The members with `value` at `parts` (nil: removed), objects made on the way as needed.
  static func setting(_ value: JSONValue?, at parts: [String], in members: [String: JSONValue]) -> [String: JSONValue] {
    guard let first = parts.first else { return members }
    var out = members
    if parts.count == 1 {
      out[first] = value
    } else {
      var inner: [String: JSONValue] = [:]
      if case .object(let existing)? = members[first] { inner = existing }
      out[first] = .object(setting(value, at: Array(parts.dropFirst()), in: inner))
    }
    return out
  }
}
