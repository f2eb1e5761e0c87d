import BotCore
import ChatBridge
import Foundation
import Logging

/// Builds an `AppConfiguration` from the JSON tree, checking every key in file order so all problems come out at
/// once. Returns nil only when the top level is not an object.
enum ConfigurationParser {
  static let topLevelKeys = [
    "forum", "dataDirectory", "polling", "commands", "transports", "roles", "rooms", "logging", "metrics", "logLevel",
    "chatTimeZone", "privateMessages", "backup",
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
    let (transports, names) = parseTransports(top, environment: environment, reader: &reader)
    let roles = parseRoles(top, transports: names, reader: &reader)
    let rooms = parseRooms(top, transports: names, reader: &reader)
    let privateMessages = parsePrivateMessages(top, transports: names, reader: &reader)
    let logging = parseLogging(top, reader: &reader)
    let metrics = parseMetrics(top, reader: &reader)
    var logLevel: Logger.Level?
    if let text = reader.string(top, "logLevel", at: "") {
      logLevel = Logger.Level(rawValue: text)
      if logLevel == nil { reader.report("logLevel", "unknown level \"\(text)\"") }
    }
    let chatTimeZone = timeZone(top, "chatTimeZone", at: "", reader: &reader)
    let backup = parseBackup(top, reader: &reader)
    return AppConfiguration(
      forum: forum, dataDirectory: dataDirectory, polling: polling, commands: commands, transports: transports,
      roles: roles, rooms: rooms, logging: logging, metrics: metrics, logLevel: logLevel, chatTimeZone: chatTimeZone,
      privateMessages: privateMessages, backup: backup)
  }

  // MARK: Sections

  private static func parseForum(_ top: [String: JSONValue], environment: [String: String], reader: inout ConfigReader)
    -> AppConfiguration.ForumSettings
  {
    let path = "forum"
    let keys = [
      "baseURL", "username", "password", "timeZone", "requestSpacingSeconds", "requestTimeoutSeconds",
      "announcementsForumID", "updateReadMarkers", "cookies", "userAgent",
    ]
    let fallbackPassword = SecretValue(environment: AppConfiguration.ForumSettings.passwordVariable)
    guard reader.required(top, path, at: "") != nil, let forum = reader.object(top[path], at: path, known: keys) else {
      return .init(username: "", password: fallbackPassword)
    }
    var baseURL: URL?
    if let text = reader.string(forum, "baseURL", at: path) {
      if let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil {
        baseURL = url
      } else {
        reader.report("forum.baseURL", "expected an http(s) URL, got \"\(text)\"")
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
    var settings = AppConfiguration.ForumSettings(
      baseURL: baseURL, username: username, password: password, timeZone: zone, requestSpacingSeconds: spacing,
      requestTimeoutSeconds: timeout, announcementsForumID: announcementsForum,
      updateReadMarkers: reader.bool(forum, "updateReadMarkers", at: path))
    settings.cookies = parseForumCookies(forum, environment: environment, reader: &reader)
    if let agent = reader.string(forum, "userAgent", at: path) {
      if agent.trimmingCharacters(in: .whitespaces).isEmpty || agent.contains(where: { $0.isNewline }) {
        reader.report("forum.userAgent", "must be one line of text, as the browser sends it")
      } else {
        settings.userAgent = agent
      }
    }
    return settings
  }

  /// `forum.cookies`: name → secret (a string or `{"env": "VARIABLE"}`), as a browser holds them after passing a
  /// Cloudflare challenge (`cf_clearance`).
  private static func parseForumCookies(
    _ forum: [String: JSONValue], environment: [String: String], reader: inout ConfigReader
  ) -> [String: SecretValue] {
    guard let value = forum["cookies"], value != .null else { return [:] }
    guard case .object(let members) = value else {
      reader.report("forum.cookies", "expected an object of cookie name to value, got \(value.kindName)")
      return [:]
    }
    var cookies: [String: SecretValue] = [:]
    for name in members.keys.sorted() {
      let path = "forum.cookies.\(name)"
      let token = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
      guard token else {
        reader.report(path, "is not a cookie name")
        continue
      }
      guard let secret = reader.secret(members, name, at: "forum.cookies") else { continue }
      if reader.checksSecrets, !reader.hasProblem(at: path) {
        guard let resolved = secret.resolve(environment: environment) else {
          reader.report(path, "\(secret) is not set")
          continue
        }
        if resolved.contains(where: { $0 == ";" || $0.isWhitespace || $0 == "," }) {
          reader.report(path, "a cookie value has no spaces, commas or semicolons")
        }
      }
      cookies[name] = secret
    }
    return cookies
  }

  private static func parsePolling(_ top: [String: JSONValue], reader: inout ConfigReader)
    -> AppConfiguration.PollingSettings?
  {
    let path = "polling"
    let intervals = [
      "bookmarksSeconds", "bookmarksMinimumSeconds", "bookmarksFullSweepSeconds", "announcementsSeconds",
      "forumsSeconds", "forumsMinimumSeconds", "privateMessagesSeconds",
    ]
    guard
      let polling = reader.object(top[path], at: path, known: intervals + ["replayCap", "maximumBackoffSeconds"])
    else { return nil }
    var values: [String: Double] = [:]
    for key in intervals {
      guard let value = reader.number(polling, key, at: path) else { continue }
      if value < 5 { reader.report("polling.\(key)", "must be at least 5 seconds, got \(value)") }
      values[key] = value
    }
    // A floor above its ceiling is a typo, not a wish: said here rather than quietly clamped. (A default floor above
    // a low ceiling, as in the demo, is clamped by the engine.)
    for (floor, ceiling, defaultCeiling) in [
      ("bookmarksMinimumSeconds", "bookmarksSeconds", 60.0), ("forumsMinimumSeconds", "forumsSeconds", 300),
    ] {
      let high = values[ceiling] ?? defaultCeiling
      if let low = values[floor], low > high {
        reader.report("polling.\(floor)", "must not be above polling.\(ceiling) (\(high)), got \(low)")
      }
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
      privateMessagesSeconds: values["privateMessagesSeconds"],
      bookmarksMinimumSeconds: values["bookmarksMinimumSeconds"],
      bookmarksFullSweepSeconds: values["bookmarksFullSweepSeconds"],
      forumsMinimumSeconds: values["forumsMinimumSeconds"])
  }

  private static func parseCommands(_ top: [String: JSONValue], reader: inout ConfigReader)
    -> AppConfiguration.CommandSettings?
  {
    let budgetKeys = ["userCommandsPerMinute", "roomCommandsPerMinute", "forumRequestsPerMinute"]
    guard
      let commands = reader.object(top["commands"], at: "commands", known: ["prefix", "botName"] + budgetKeys)
    else {
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
    var limits: [String: Int] = [:]
    for key in budgetKeys {
      guard let value = reader.integer(commands, key, at: "commands") else { continue }
      if value < 0 || value > 10_000 {
        reader.report("commands.\(key)", "expected 0 (no limit) to 10000, got \(value)")
      } else {
        limits[key] = value
      }
    }
    return .init(
      prefix: prefix, botName: botName, userCommandsPerMinute: limits["userCommandsPerMinute"],
      roomCommandsPerMinute: limits["roomCommandsPerMinute"], forumRequestsPerMinute: limits["forumRequestsPerMinute"])
  }

  /// The transports, and the names of all of them, those of an unknown type too: rooms and roles naming one are
  /// then not reported a second time.
  private static func parseTransports(
    _ top: [String: JSONValue], environment: [String: String], reader: inout ConfigReader
  ) -> (transports: [TransportSettings], names: Set<String>) {
    guard reader.required(top, "transports", at: "") != nil, let items = reader.array(top, "transports", at: "") else {
      return ([], [])
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
      if let name, !TransportNames.isValid(name) {
        reader.report("\(path).name", "expected letters, digits, - or _, got \"\(name)\"")
      }
      guard let type else { continue }
      guard let transportType = TransportType(rawValue: type) else {
        reader.report("\(path).type", "unknown transport \"\(type)\" (supported: \(TransportType.supported))")
        names.insert(name ?? type)
        continue
      }
      let settings = TransportSettings(type: transportType, name: name, options: members)
      if !names.insert(settings.resolvedName).inserted {
        reader.report("\(path).name", "duplicate name \"\(settings.resolvedName)\"")
      }
      TransportKind.of(transportType).validate(settings, at: path, environment: environment, reader: &reader)
      transports.append(settings)
    }
    return (transports, names)
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
      let keys = ["transport", "room", "subscriptions", "mode", "replyRole", "reactions"]
      guard let room = reader.object(item, at: path, known: keys) else {
        continue
      }
      let transport = reader.string(room, "transport", at: path, required: true)
      let name = reader.string(room, "room", at: path, required: true)
      if let transport, !transports.contains(transport) {
        reader.report("\(path).transport", "no transport named \"\(transport)\"")
      }
      if let name, name.isEmpty { reader.report("\(path).room", "must not be empty") }
      var subscriptions: [RoomSubscriptionSpec]?
      if let texts = reader.strings(room, "subscriptions", at: path) {
        subscriptions = []
        for (position, text) in texts.enumerated() {
          if let spec = RoomSubscriptionSpec(parsing: text) {
            subscriptions?.append(spec)
          } else {
            reader.report(
              "\(path).subscriptions[\(position)]",
              "expected bookmarks, bookmarks:<colour>, announcements, thread:<id> or forum:<id>, got \"\(text)\"")
          }
        }
      }
      var mode: RelayMode?
      if let text = reader.string(room, "mode", at: path) {
        switch RelayMode.parse(text) {
        case .success(let parsed): mode = parsed
        case .failure(let error):
          let detail = error == .unknown ? "" : " (\(error.description))"
          reader.report(
            "\(path).mode",
            "expected each, summary [K], digest hourly or digest daily HH:MM, got \"\(text)\"\(detail)")
        }
      }
      var replyRole: ReplyPermission?
      if let text = reader.string(room, "replyRole", at: path) {
        replyRole = ReplyPermission(name: text)
        if replyRole == nil {
          reader.report("\(path).replyRole", "expected off, viewer, member or admin, got \"\(text)\"")
        }
      }
      let reactions = reader.bool(room, "reactions", at: path)
      if let transport, let name {
        rooms.append(
          .init(
            transport: transport, room: name, subscriptions: subscriptions, mode: mode, replyRole: replyRole,
            reactions: reactions))
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
    var level: Logger.Level?
    if let text = reader.string(logging, "level", at: "logging") {
      level = Logger.Level(rawValue: text)
      if level == nil {
        reader.report(
          "logging.level", "expected one of \(LoggingSettings.levels.joined(separator: ", ")), got \"\(text)\"")
      }
    }
    var format: LoggingSettings.Format?
    if let text = reader.string(logging, "format", at: "logging") {
      format = LoggingSettings.Format(rawValue: text)
      if format == nil { reader.report("logging.format", "expected text or json, got \"\(text)\"") }
    }
    return LoggingSettings(level: level, format: format)
  }

  /// A file without a `metrics` section gets the listener on its default address: operators expect it there.
  private static func parseMetrics(_ top: [String: JSONValue], reader: inout ConfigReader) -> MetricsSettings? {
    if top["metrics"] == nil { return MetricsSettings() }
    guard let metrics = reader.object(top["metrics"], at: "metrics", known: ["enabled", "listen"]) else { return nil }
    var listen: HostPort?
    if let text = reader.string(metrics, "listen", at: "metrics") {
      listen = HostPort(parsing: text)
      if listen == nil {
        reader.report("metrics.listen", "expected host:port like 127.0.0.1:9464, got \"\(text)\"")
      }
    }
    return MetricsSettings(enabled: reader.bool(metrics, "enabled", at: "metrics"), listen: listen)
  }

  /// `backup`: `everyHours`, `keep` and `directory`, each optional (see `BackupSettings` for the defaults).
  private static func parseBackup(_ top: [String: JSONValue], reader: inout ConfigReader) -> BackupSettings? {
    let path = "backup"
    guard let backup = reader.object(top[path], at: path, known: ["everyHours", "keep", "directory"]) else {
      return nil
    }
    let range = BackupSettings.everyHoursRange
    var everyHours = reader.number(backup, "everyHours", at: path)
    if let hours = everyHours, !range.contains(hours) {
      reader.report(
        "backup.everyHours", "expected \(Int(range.lowerBound)) to \(Int(range.upperBound)) hours, got \(hours)")
      everyHours = nil
    }
    var keep = reader.integer(backup, "keep", at: path)
    if let count = keep, count < 1 {
      reader.report("backup.keep", "must be at least 1 (leave the backup section out for no backups), got \(count)")
      keep = nil
    }
    var directory = reader.string(backup, "directory", at: path)
    if let text = directory, text.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report(
        "backup.directory", "must not be empty (leave it out for \(BackupSettings.defaultDirectory) in dataDirectory)")
      directory = nil
    }
    return BackupSettings(everyHours: everyHours, keep: keep, directory: directory)
  }

  private static func timeZone(
    _ members: [String: JSONValue], _ key: String, at path: String,
    reader: inout ConfigReader
  ) -> TimeZone? {
    guard let text = reader.string(members, key, at: path) else { return nil }
    guard let zone = TimeZone(identifier: text) else {
      reader.report(ConfigReader.join(path, key), "unknown time zone \"\(text)\"")
      return nil
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
