import ChatBridge
import Foundation

extension TransportSettings: Decodable {
  /// `transports[]`: the `type` (a plugin's, `TransportPlugins`), the unique `name`, and the transport's own keys,
  /// decoded on the spot into the plugin's `Configuration` (`read`). The name is recorded for the rooms and roles that
  /// follow, that of a transport of an unknown type or unreadable settings too, so they do not report it a second
  /// time.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder, reportsUnknownKeys: false)
    let context = reader.context
    let typeName = reader.string(.type, required: true)
    let name = reader.string(.name)
    if let name, !TransportNames.isValid(name) {
      reader.report(.name, "expected letters, digits, - or _, got \"\(name)\"")
    }
    guard let typeName else {
      try reader.finish()
      throw ConfigurationSkip()
    }
    guard let plugin = TransportPlugins.named(typeName) else {
      reader.report(.type, "unknown transport \"\(typeName)\" (supported: \(TransportType.supported))")
      context.transportNames = (context.transportNames ?? []).union([name ?? typeName])
      try reader.finish()
      throw ConfigurationSkip()
    }
    let resolvedName = name ?? plugin.type.rawValue
    var names = context.transportNames ?? []
    if !names.insert(resolvedName).inserted { reader.report(.name, "duplicate name \"\(resolvedName)\"") }
    context.transportNames = names
    let read = Self.read(plugin, name: name, reader: reader)
    try reader.finish()
    guard let read else { throw ConfigurationSkip() }
    self = read
  }

  /// One `transports[]` entry read on its own, as the config file's reader reads it (`setup`'s answers, tests);
  /// throws a `ConfigurationError` naming every problem by its key.
  package static func read(
    _ entry: [String: JSONValue], environment: [String: String] = [:], checksSecrets: Bool = true
  ) throws -> TransportSettings {
    try ConfigurationDecoding.decode(
      TransportSettings.self, from: JSONEncoder().encode(JSONValue.object(entry)), environment: environment,
      checksSecrets: checksSecrets)
  }

  /// The keys every transport has; the others are its plugin's (`TransportPlugin.Configuration`).
  enum CodingKeys: String, CodingKey, CaseIterable {
    case type, name
  }

  /// The one reading of a transport's keys: unknown ones reported, secrets resolved (`{"env": "NAME"}` anywhere
  /// becomes the variable's value, and each of the plugin's `secretKeys` left out is taken from
  /// `AWFULBOT_<NAME>_<KEY>`), then decoded into `P.Configuration`, whose problems are reported at their key paths
  /// by `reader` (the entry's). nil when anything was wrong (reported).
  private static func read<P: TransportPlugin>(_ plugin: P.Type, name: String?, reader: ConfigReader<CodingKeys>)
    -> TransportSettings?
  {
    let context = reader.context
    let resolvedName = name ?? P.type.rawValue
    var reported: Set<String> = []
    func report(_ key: String, _ reason: String) {
      reported.insert(key)
      reader.report(key, reason)
    }
    let known =
      CodingKeys.allCases.map(\.stringValue) + P.Configuration.configurationKeys.filter { $0 != "name" }.sorted()
    reader.reportUnknownKeys(known: known, reason: "unknown key for a \(P.type) transport")
    let members = reader.members()
    var options = members.filter { !ConfigKey.isComment($0.key) && $0.key != CodingKeys.type.stringValue }
    var writtenSecrets: [String: SecretValue] = [:]
    let secretKeys = SecretPaths.expanded(P.secretKeys, in: options)
    for key in secretKeys {
      let parts = key.split(separator: ".").map(String.init)
      guard let value = SecretPaths.value(at: parts, in: .object(options)) else { continue }
      switch SecretValue.written(value) {
      case .success(let secret): writtenSecrets[key] = secret
      case .failure(let problem):
        report(key, problem.reason)
        options = SecretPaths.setting(nil, at: parts, in: options)
      }
    }
    options = SecretPaths.resolved(
      options, checksSecrets: context.checksSecrets, environment: context.environment, report: report)
    for key in secretKeys {
      let parts = key.split(separator: ".").map(String.init)
      guard SecretPaths.value(at: parts, in: .object(options)) == nil else { continue }
      let variable = environmentVariable(transport: resolvedName, key: key)
      if let value = context.environment[variable], !value.isEmpty {
        options = SecretPaths.setting(.string(value), at: parts, in: options)
      }
    }
    options[CodingKeys.name.stringValue] = .string(resolvedName)
    do {
      let configuration = try JSONValue.object(options).decode(
        P.Configuration.self, userInfo: context.checksSecrets ? [:] : [.secretsOptional: true])
      return TransportSettings(
        plugin, name: name, configuration: configuration, writtenSecrets: writtenSecrets, written: members)
    } catch let error as any ConfigProblems {
      // Keys already reported here (a secret's variable not set) are not reported again; a key may have more than
      // one problem of the transport's own.
      let before = reported
      for var problem in error.keyedProblems {
        if secretKeys.contains(problem.key), problem.reason.hasPrefix("missing") {
          // Without secrets (`status`), a secret left to the environment is not missing.
          guard context.checksSecrets else { continue }
          let suffix = environmentVariable(transport: "x", key: problem.key).dropFirst("AWFULBOT_X_".count)
          problem.reason = "missing (or set $AWFULBOT_<NAME>_\(suffix))"
        }
        guard
          let worded = P.fileProblem(problem, checksSecrets: context.checksSecrets, reported: before.contains),
          !before.contains(worded.key)
        else { continue }
        report(worded.key, worded.reason)
      }
    } catch {
      report("", "\(error)")
    }
    return nil
  }
}
