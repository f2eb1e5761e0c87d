import BotCore
import ChatBridge
import Foundation

/// One chat connection in the `transports` list: its plugin (by `type`), its unique `name` (the `transport` of rooms
/// and role grants), and its settings as the plugin's own typed `Configuration`, decoded once when the config is read
/// with its secrets taken from the environment (`TransportSettings+Reading`). Everything downstream reaches the
/// settings through the plugin's steps below.
package struct TransportSettings: Sendable {
  package let plugin: any TransportPlugin.Type
  package let name: String?
  /// The plugin's `Configuration`.
  private let stored: any KeyedConfiguration
  /// Each secret key the file writes, as written (a literal, or `{"env": "NAME"}`): `check` warns about literal ones
  /// in a file others can read, `backup` names the variables.
  package let writtenSecrets: [String: SecretValue]
  /// The entry as written (secrets as `{"env": "NAME"}`), only to write the file back (`setup`, `validate()`).
  private let written: [String: JSONValue]

  /// `configuration` made in code (the console of `demo`, tests) or read from the file (`written`, its entry as the
  /// file has it: what `encode` writes back; settings made in code write only their type and name).
  package init<P: TransportPlugin>(
    _ plugin: P.Type, name: String? = nil, configuration: P.Configuration,
    writtenSecrets: [String: SecretValue] = [:], written: [String: JSONValue] = [:]
  ) {
    self.plugin = plugin
    self.name = name
    self.stored = configuration
    self.writtenSecrets = writtenSecrets
    self.written = written
  }

  /// The console transport, for configurations built in code (`demo`, the benchmark).
  package static func console(name: String? = nil) -> TransportSettings {
    TransportSettings(
      ConsolePlugin.self, name: name, configuration: .init(name: name ?? ConsolePlugin.type.rawValue))
  }

  package var type: TransportType { plugin.type }
  package var resolvedName: String { name ?? type.rawValue }

  /// The settings as `P` reads them; nil when they are another plugin's.
  package func configuration<P: TransportPlugin>(of plugin: P.Type) -> P.Configuration? {
    stored as? P.Configuration
  }

  /// The settings of this transport's own plugin; set together at `init`, so the cast holds.
  private func typed<P: TransportPlugin>(_: P.Type) -> P.Configuration {
    guard let typed = stored as? P.Configuration else {
      preconditionFailure("transport \(resolvedName): settings of another plugin")
    }
    return typed
  }

  /// The plugin's secret keys as this entry writes them (`rooms.*.webhook` becomes one key per room written).
  package var secretKeys: [String] { SecretPaths.expanded(plugin.secretKeys, in: written) }

  /// `AWFULBOT_<NAME>_<KEY>`: the environment variable that supplies a secret this transport's config leaves out,
  /// e.g. `AWFULBOT_IRC_LIBERA_SASL_PASSWORD` for `sasl.password` of the transport named `irc-libera`.
  package static func environmentVariable(transport: String, key: String) -> String {
    var words: [String] = ["AWFULBOT", transport]
    // accessToken → ACCESS_TOKEN, sasl.password → SASL_PASSWORD
    var current = ""
    for character in key {
      if character == "." || character == "-" {
        words.append(current)
        current = ""
      } else if character.isUppercase, !current.isEmpty {
        words.append(current)
        current = String(character)
      } else {
        current.append(character)
      }
    }
    words.append(current)
    return words.filter { !$0.isEmpty }.joined(separator: "_").uppercased()
      .map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
  }
}

// The plugin's steps, each on the typed settings.
extension TransportSettings {
  package func make(context: TransportBuildContext) throws -> any ChatTransport {
    func open<P: TransportPlugin>(_ plugin: P.Type) throws -> any ChatTransport {
      try P.make(typed(P.self), context: context)
    }
    return try open(plugin)
  }

  package func probe(context: TransportBuildContext) async -> CheckResult {
    func open<P: TransportPlugin>(_ plugin: P.Type) async -> CheckResult {
      await P.probe(typed(P.self), context: context)
    }
    return await open(plugin)
  }

  /// Applies `next`'s live keys to `transport`, built from these settings (same plugin: matched by name and type).
  package func reconfigure(_ transport: any ChatTransport, to next: TransportSettings, context: TransportBuildContext)
    async throws -> [String]
  {
    func open<P: TransportPlugin>(_ plugin: P.Type) async throws -> [String] {
      try await P.reconfigure(transport, from: typed(P.self), to: next.typed(P.self), context: context)
    }
    return try await open(plugin)
  }

  package var roleSettings: TransportRoleSettings {
    func open<P: TransportPlugin>(_ plugin: P.Type) -> TransportRoleSettings { P.roleSettings(typed(P.self)) }
    return open(plugin)
  }

  /// See `TransportPlugin.rooms`.
  package var ownRooms: [String]? {
    func open<P: TransportPlugin>(_ plugin: P.Type) -> [String]? { P.rooms(typed(P.self)) }
    return open(plugin)
  }

  package var namedRooms: [String] {
    func open<P: TransportPlugin>(_ plugin: P.Type) -> [String] { P.namedRooms(typed(P.self)) }
    return open(plugin)
  }

  package func keptFiles(dataDirectory: URL) -> [BackupKeptFile] {
    func open<P: TransportPlugin>(_ plugin: P.Type) -> [BackupKeptFile] {
      P.keptFiles(typed(P.self), name: resolvedName, dataDirectory: dataDirectory)
    }
    return open(plugin)
  }

  package func checkState(stored: (any TransportStateStore)?, rooms: [String: Bool], context: TransportBuildContext)
    async -> [CheckResult]
  {
    func open<P: TransportPlugin>(_ plugin: P.Type) async -> [CheckResult] {
      let configuration = typed(P.self)
      return await P.checkState(configuration, stored: stored, context: context)
        + P.checkRooms(configuration, rooms: rooms, stored: stored, context: context)
    }
    return await open(plugin)
  }

  package func roomMembers(_ room: String, stored: (any TransportStateStore)?, context: TransportBuildContext)
    async throws -> RoomMembersAnswer
  {
    func open<P: TransportPlugin>(_ plugin: P.Type) async throws -> RoomMembersAnswer {
      try await P.roomMembers(typed(P.self), room: room, stored: stored, context: context)
    }
    return try await open(plugin)
  }

  /// The file's keys whose settings differ in `next` (same plugin), each with whether the running transport takes
  /// it (`TransportPlugin.liveKeys`).
  package func changedKeys(to next: TransportSettings) -> [(key: String, live: Bool)] {
    func open<P: TransportPlugin>(_ plugin: P.Type) -> [(key: String, live: Bool)] {
      typed(P.self).changedKeys(to: next.typed(P.self)).map { ($0, P.liveKeys.contains($0)) }
    }
    return open(plugin)
  }
}

extension TransportSettings: Hashable {
  /// Same plugin, name and settings (secrets as resolved and as written); notes (`_comment`) do not count.
  package static func == (lhs: TransportSettings, rhs: TransportSettings) -> Bool {
    lhs.type == rhs.type && lhs.name == rhs.name && lhs.writtenSecrets == rhs.writtenSecrets
      && equal(lhs.stored, rhs.stored)
  }

  private static func equal<C: KeyedConfiguration>(_ left: C, _ right: any KeyedConfiguration) -> Bool {
    left == right as? C
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(name)
  }
}

extension TransportSettings: Encodable {
  /// Written as the file wrote it (`type`, `name`, then the transport's keys, secrets as `{"env": "NAME"}`).
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ConfigKey.self)
    try container.encode(type.rawValue, forKey: ConfigKey(stringValue: "type"))
    try container.encodeIfPresent(name, forKey: ConfigKey(stringValue: "name"))
    for (key, value) in written.sorted(by: { $0.key < $1.key }) where key != "type" && key != "name" {
      try container.encode(value, forKey: ConfigKey(stringValue: key))
    }
  }
}
