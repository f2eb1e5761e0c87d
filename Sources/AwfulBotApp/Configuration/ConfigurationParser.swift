import BotCore
import ChatBridge
import Foundation

/// Builds an `AppConfiguration` from the JSON tree, checking every key in file order so all problems come out at
/// once. Returns nil only when the top level is not an object.
enum ConfigurationParser {
  static let topLevelKeys = [
    "forum", "dataDirectory", "polling", "commands", "transports", "roles", "rooms", "logging", "metrics", "logLevel",
    "chatTimeZone", "privateMessages",
  ]

  static func parse(_ json: JSONValue, environment: [String: String], reader: inout ConfigReader)
    -> AppConfiguration?
  {
    guard let top = reader.object(json, at: "", known: topLevelKeys) else { return nil }
    let forum = parseForum(top, environment: environment, reader: &reader)
    var dataDirectory = reader.string(top, "dataDirectory", at: "")
    if dataDirectory?.trimmingCharacters(in: .whitespaces).isEmpty == true {
      reader.report("dataDirectory", "must not be empty (leave it out to use the working directory)")
      dataDirectory = nil
    }
    let polling = parsePolling(top, reader: &reader)
    let commands = parseCommands(top, reader: &reader)
    let transports = parseTransports(top, environment: environment, reader: &reader)
    let names = Set(transports.map(\.resolvedName))
    let roles = parseRoles(top, transports: names, reader: &reader)
    let rooms = parseRooms(top, transports: names, reader: &reader)
    let privateMessages = parsePrivateMessages(top, transports: names, reader: &reader)
    let logging = parseLogging(top, reader: &reader)
    let metrics = parseMetrics(top, reader: &reader)
    let logLevel = reader.string(top, "logLevel", at: "")
    if let logLevel, !LoggingSettings.levels.contains(logLevel) {
      reader.report("logLevel", "unknown level \"\(logLevel)\"")
    }
    let chatTimeZone = timeZone(top, "chatTimeZone", at: "", reader: &reader)
    return AppConfiguration(
      forum: forum, dataDirectory: dataDirectory, polling: polling, commands: commands, transports: transports,
      roles: roles, rooms: rooms, logging: logging, metrics: metrics, logLevel: logLevel, chatTimeZone: chatTimeZone,
      privateMessages: privateMessages)
  }

  // MARK: Sections

  private static func parseForum(_ top: [String: JSONValue], environment: [String: String], reader: inout ConfigReader)
    -> AppConfiguration.ForumSettings
  {
    let path = "forum"
    let keys = [
      "baseURL", "username", "password", "timeZone", "requestSpacingSeconds", "requestTimeoutSeconds",
      "announcementsForumID", "updateReadMarkers",
    ]
    let fallbackPassword = SecretValue(environment: AppConfiguration.ForumSettings.passwordVariable)
    guard reader.required(top, path, at: "") != nil, let forum = reader.object(top[path], at: path, known: keys) else {
      return .init(username: "", password: fallbackPassword)
    }
    let baseURL = reader.string(forum, "baseURL", at: path)
    if let baseURL {
      if let url = URL(string: baseURL), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil {
      } else {
        reader.report("forum.baseURL", "expected an http(s) URL, got \"\(baseURL)\"")
      }
    }
    let username = reader.string(forum, "username", at: path, required: true) ?? ""
    if !reader.hasProblem(at: "forum.username"), username.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report("forum.username", "must not be empty")
    }
    let password = reader.secret(forum, "password", at: path) ?? fallbackPassword
    if reader.checksSecrets, !reader.hasProblem(at: "forum.password"), password.resolve(environment: environment) == nil
    {
      reader.report("forum.password", "\(password) is not set")
    }
    let zone = timeZone(forum, "timeZone", at: path, reader: &reader)
    let spacing = reader.number(forum, "requestSpacingSeconds", at: path)
    if let spacing, spacing < 0 { reader.report("forum.requestSpacingSeconds", "must be 0 or more") }
    let timeout = reader.number(forum, "requestTimeoutSeconds", at: path)
    if let timeout, timeout <= 0 { reader.report("forum.requestTimeoutSeconds", "must be more than 0") }
    var announcementsForum: String?
    switch forum["announcementsForumID"] {
    case .string(let id)? where !id.isEmpty && id.allSatisfy(\.isNumber): announcementsForum = id
    case .number(let id)? where id >= 1 && id.rounded() == id: announcementsForum = String(Int(id))
    case nil, .null?: break
    case let other?:
      reader.report("forum.announcementsForumID", "expected a forum id like \"1\", got \(other.kindName)")
    }
    return .init(
      baseURL: baseURL, username: username, password: password, timeZone: zone, requestSpacingSeconds: spacing,
      requestTimeoutSeconds: timeout, announcementsForumID: announcementsForum,
      updateReadMarkers: reader.bool(forum, "updateReadMarkers", at: path))
  }

  private static func parsePolling(_ top: [String: JSONValue], reader: inout ConfigReader)
    -> AppConfiguration.PollingSettings?
  {
    let path = "polling"
    let intervals = ["bookmarksSeconds", "announcementsSeconds", "forumsSeconds", "privateMessagesSeconds"]
    guard
      let polling = reader.object(top[path], at: path, known: intervals + ["replayCap", "maximumBackoffSeconds"])
    else { return nil }
    var values: [String: Double] = [:]
    for key in intervals {
      guard let value = reader.number(polling, key, at: path) else { continue }
      if value < 5 { reader.report("polling.\(key)", "must be at least 5 seconds, got \(value)") }
      values[key] = value
    }
    let replayCap = reader.integer(polling, "replayCap", at: path)
    if let replayCap, replayCap < 1 { reader.report("polling.replayCap", "must be at least 1, got \(replayCap)") }
    let backoff = reader.number(polling, "maximumBackoffSeconds", at: path)
    if let backoff, backoff < 30 {
      reader.report("polling.maximumBackoffSeconds", "must be at least 30 seconds, got \(backoff)")
    }
    return .init(
      bookmarksSeconds: values["bookmarksSeconds"], announcementsSeconds: values["announcementsSeconds"],
      forumsSeconds: values["forumsSeconds"], replayCap: replayCap, maximumBackoffSeconds: backoff,
      privateMessagesSeconds: values["privateMessagesSeconds"])
  }

  private static func parseCommands(_ top: [String: JSONValue], reader: inout ConfigReader)
    -> AppConfiguration.CommandSettings?
  {
    guard let commands = reader.object(top["commands"], at: "commands", known: ["prefix", "botName"]) else {
      return nil
    }
    let prefix = reader.string(commands, "prefix", at: "commands")
    if let prefix, prefix.isEmpty || prefix.contains(where: \.isWhitespace) {
      reader.report("commands.prefix", "expected one or more non-space characters, got \"\(prefix)\"")
    }
    let botName = reader.string(commands, "botName", at: "commands")
    if let botName, botName.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report("commands.botName", "must not be empty")
    }
    return .init(prefix: prefix, botName: botName)
  }

  private static func parseTransports(
    _ top: [String: JSONValue], environment: [String: String], reader: inout ConfigReader
  ) -> [TransportSettings] {
    guard reader.required(top, "transports", at: "") != nil, let items = reader.array(top, "transports", at: "") else {
      return []
    }
    if items.isEmpty { reader.report("transports", "at least one transport is needed") }
    var transports: [TransportSettings] = []
    var names = Set<String>()
    for (index, item) in items.enumerated() {
      let path = "transports[\(index)]"
      guard case .object(var members) = item else {
        reader.report(path, "expected an object, got \(item.kindName)")
        continue
      }
      let type = reader.string(members, "type", at: path, required: true)
      let name = reader.string(members, "name", at: path)
      members["type"] = nil
      members["name"] = nil
      let settings = TransportSettings(type: type ?? "", name: name, options: members)
      if let name, !TransportNames.isValid(name) {
        reader.report("\(path).name", "expected letters, digits, - or _, got \"\(name)\"")
      }
      guard let type else { continue }
      guard let kind = TransportKind.named(type) else {
        reader.report("\(path).type", "unknown transport \"\(type)\" (supported: \(TransportKind.supportedTypes))")
        // Kept, so rooms and roles naming it are not reported a second time.
        transports.append(settings)
        continue
      }
      if !names.insert(settings.resolvedName).inserted {
        reader.report("\(path).name", "duplicate name \"\(settings.resolvedName)\"")
      }
      kind.validate(settings, at: path, environment: environment, reader: &reader)
      transports.append(settings)
    }
    return transports
  }

  private static func parseRoles(_ top: [String: JSONValue], transports: Set<String>, reader: inout ConfigReader)
    -> [AppConfiguration.RoleGrant]?
  {
    guard let items = reader.array(top, "roles", at: "") else { return nil }
    var grants: [AppConfiguration.RoleGrant] = []
    for (index, item) in items.enumerated() {
      let path = "roles[\(index)]"
      guard let grant = reader.object(item, at: path, known: ["transport", "user", "role"]) else { continue }
      let transport = reader.string(grant, "transport", at: path, required: true)
      let user = reader.string(grant, "user", at: path, required: true)
      let role = reader.string(grant, "role", at: path, required: true)
      if let transport, !transports.contains(transport) {
        reader.report("\(path).transport", "no transport named \"\(transport)\"")
      }
      let typed = role.flatMap(Role.init(name:))
      if let role, typed == nil {
        reader.report("\(path).role", "expected viewer, member or admin, got \"\(role)\"")
      }
      if let user, user.isEmpty { reader.report("\(path).user", "must not be empty") }
      if let transport, let user, let typed { grants.append(.init(transport: transport, user: user, role: typed)) }
    }
    return grants
  }

  private static func parseRooms(_ top: [String: JSONValue], transports: Set<String>, reader: inout ConfigReader)
    -> [AppConfiguration.RoomSettings]?
  {
    guard let items = reader.array(top, "rooms", at: "") else { return nil }
    var rooms: [AppConfiguration.RoomSettings] = []
    for (index, item) in items.enumerated() {
      let path = "rooms[\(index)]"
      guard let room = reader.object(item, at: path, known: ["transport", "room", "subscriptions", "mode"]) else {
        continue
      }
      let transport = reader.string(room, "transport", at: path, required: true)
      let name = reader.string(room, "room", at: path, required: true)
      if let transport, !transports.contains(transport) {
        reader.report("\(path).transport", "no transport named \"\(transport)\"")
      }
      if let name, name.isEmpty { reader.report("\(path).room", "must not be empty") }
      let subscriptions = reader.strings(room, "subscriptions", at: path)
      for (position, subscription) in (subscriptions ?? []).enumerated()
      where RoomSubscriptionSpec(parsing: subscription) == nil {
        reader.report(
          "\(path).subscriptions[\(position)]",
          "expected bookmarks, bookmarks:<colour>, announcements, thread:<id> or forum:<id>, got \"\(subscription)\"")
      }
      let mode = reader.string(room, "mode", at: path)
      if let mode, case .failure(let error) = RelayMode.parse(mode) {
        let detail = error == .unknown ? "" : " (\(error.description))"
        reader.report(
          "\(path).mode",
          "expected each, summary [K], digest hourly or digest daily HH:MM, got \"\(mode)\"\(detail)")
      }
      if let transport, let name {
        rooms.append(.init(transport: transport, room: name, subscriptions: subscriptions, mode: mode))
      }
    }
    return rooms
  }

  /// `privateMessages`: `rooms` (each `{"transport", "room"}` as in `rooms[]`) and `excerpt`.
  private static func parsePrivateMessages(
    _ top: [String: JSONValue], transports: Set<String>, reader: inout ConfigReader
  ) -> AppConfiguration.PrivateMessageSettings? {
    let path = "privateMessages"
    guard let section = reader.object(top[path], at: path, known: ["rooms", "excerpt"]) else { return nil }
    var rooms: [AppConfiguration.RoomReference] = []
    for (index, item) in (reader.array(section, "rooms", at: path) ?? []).enumerated() {
      let itemPath = "\(path).rooms[\(index)]"
      guard let room = reader.object(item, at: itemPath, known: ["transport", "room"]) else { continue }
      let transport = reader.string(room, "transport", at: itemPath, required: true)
      let name = reader.string(room, "room", at: itemPath, required: true)
      if let transport, !transports.contains(transport) {
        reader.report("\(itemPath).transport", "no transport named \"\(transport)\"")
      }
      if let name, name.trimmingCharacters(in: .whitespaces).isEmpty {
        reader.report("\(itemPath).room", "must not be empty")
      }
      if let transport, let name {
        let reference = AppConfiguration.RoomReference(transport: transport, room: name)
        if rooms.contains(reference) {
          reader.report(itemPath, "names \(transport) \(name) a second time")
        } else {
          rooms.append(reference)
        }
      }
    }
    return .init(rooms: rooms, excerpt: reader.bool(section, "excerpt", at: path))
  }

  private static func parseLogging(_ top: [String: JSONValue], reader: inout ConfigReader) -> LoggingSettings? {
    guard let logging = reader.object(top["logging"], at: "logging", known: ["level", "format"]) else { return nil }
    let level = reader.string(logging, "level", at: "logging")
    if let level, !LoggingSettings.levels.contains(level) {
      reader.report(
        "logging.level", "expected one of \(LoggingSettings.levels.joined(separator: ", ")), got \"\(level)\"")
    }
    let format = reader.string(logging, "format", at: "logging")
    if let format, !LoggingSettings.formats.contains(format) {
      reader.report("logging.format", "expected text or json, got \"\(format)\"")
    }
    return LoggingSettings(level: level, format: format)
  }

  /// A file without a `metrics` section gets the listener on its default address: operators expect it there.
  private static func parseMetrics(_ top: [String: JSONValue], reader: inout ConfigReader) -> MetricsSettings? {
    if top["metrics"] == nil { return MetricsSettings() }
    guard let metrics = reader.object(top["metrics"], at: "metrics", known: ["enabled", "listen"]) else { return nil }
    let listen = reader.string(metrics, "listen", at: "metrics")
    if let listen, HostPort(parsing: listen) == nil {
      reader.report("metrics.listen", "expected host:port like 127.0.0.1:9464, got \"\(listen)\"")
    }
    return MetricsSettings(enabled: reader.bool(metrics, "enabled", at: "metrics"), listen: listen)
  }

  private static func timeZone(
    _ members: [String: JSONValue], _ key: String, at path: String,
    reader: inout ConfigReader
  ) -> String? {
    guard let zone = reader.string(members, key, at: path) else { return nil }
    if TimeZone(identifier: zone) == nil {
      reader.report(ConfigReader.join(path, key), "unknown time zone \"\(zone)\"")
    }
    return zone
  }
}

/// Transport names end up in environment variable names, database rows and metric labels.
enum TransportNames {
  static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 64
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
  }
}
