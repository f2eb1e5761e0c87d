import Foundation

/// The bot's JSON configuration (`awfulbot run --config FILE`). See `config.example.json` for every key.
package struct AppConfiguration: Sendable, Codable, Hashable {
  package struct ForumSettings: Sendable, Codable, Hashable {
    package var baseURL: String?
    package var username: String
    package var password: SecretValue
    package var timeZone: String?
    /// Minimum seconds between two requests to the forum (politeness).
    package var requestSpacingSeconds: Double?
    package var requestTimeoutSeconds: Double?
    /// The forum whose thread list supplies announcement titles (any forum lists them; default 1).
    package var announcementsForumID: String?

    package init(
      baseURL: String? = nil, username: String, password: SecretValue, timeZone: String? = nil,
      requestSpacingSeconds: Double? = nil, requestTimeoutSeconds: Double? = nil, announcementsForumID: String? = nil
    ) {
      self.announcementsForumID = announcementsForumID
      self.baseURL = baseURL
      self.username = username
      self.password = password
      self.timeZone = timeZone
      self.requestSpacingSeconds = requestSpacingSeconds
      self.requestTimeoutSeconds = requestTimeoutSeconds
    }
  }

  package struct PollingSettings: Sendable, Codable, Hashable {
    package var bookmarksSeconds: Double?
    package var announcementsSeconds: Double?
    package var forumsSeconds: Double?
    package init(bookmarksSeconds: Double? = nil, announcementsSeconds: Double? = nil, forumsSeconds: Double? = nil) {
      self.bookmarksSeconds = bookmarksSeconds
      self.announcementsSeconds = announcementsSeconds
      self.forumsSeconds = forumsSeconds
    }
  }

  package struct CommandSettings: Sendable, Codable, Hashable {
    package var prefix: String?
    package var botName: String?
    package init(prefix: String? = nil, botName: String? = nil) {
      self.prefix = prefix
      self.botName = botName
    }
  }

  /// One chat connection. Only `console` exists so far; Matrix and IRC come with their transports.
  package struct TransportSettings: Sendable, Codable, Hashable {
    package var type: String
    package var name: String?
    package init(type: String, name: String? = nil) {
      self.type = type
      self.name = name
    }
    package var resolvedName: String { name ?? type }
  }

  /// A role grant: `user` on `transport` gets `role` (viewer, member, admin).
  package struct RoleGrant: Sendable, Codable, Hashable {
    package var transport: String
    package var user: String
    package var role: String
    package init(transport: String, user: String, role: String) {
      self.transport = transport
      self.user = user
      self.role = role
    }
  }

  /// A room seeded at start with its subscriptions, e.g. `["bookmarks", "bookmarks:red", "announcements",
  /// "thread:3522091", "forum:46"]`.
  package struct RoomSettings: Sendable, Codable, Hashable {
    package var transport: String
    package var room: String
    package var subscriptions: [String]?
    package var mode: String?
    package init(transport: String, room: String, subscriptions: [String]? = nil, mode: String? = nil) {
      self.transport = transport
      self.room = room
      self.subscriptions = subscriptions
      self.mode = mode
    }
  }

  package var forum: ForumSettings
  package var dataDirectory: String?
  package var polling: PollingSettings?
  package var commands: CommandSettings?
  package var transports: [TransportSettings]
  package var roles: [RoleGrant]?
  package var rooms: [RoomSettings]?
  /// `trace`, `debug`, `info` (default), `notice`, `warning`, `error`.
  package var logLevel: String?
  /// Time zone for quiet hours, digest times and dates shown in chat (default UTC).
  package var chatTimeZone: String?

  package init(
    forum: ForumSettings, dataDirectory: String? = nil, polling: PollingSettings? = nil,
    commands: CommandSettings? = nil, transports: [TransportSettings], roles: [RoleGrant]? = nil,
    rooms: [RoomSettings]? = nil, logLevel: String? = nil, chatTimeZone: String? = nil
  ) {
    self.chatTimeZone = chatTimeZone
    self.forum = forum
    self.dataDirectory = dataDirectory
    self.polling = polling
    self.commands = commands
    self.transports = transports
    self.roles = roles
    self.rooms = rooms
    self.logLevel = logLevel
  }
}

/// Why a configuration cannot be used: every problem at once, each with its key path.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
  package var problems: [String]
  package init(problems: [String]) { self.problems = problems }
  package var description: String {
    "invalid configuration:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
  }
}

extension AppConfiguration {
  /// Reads and validates a config file.
  package static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws -> AppConfiguration
  {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ConfigurationError(problems: ["\(path): cannot read the file (\(error.localizedDescription))"])
    }
    let config: AppConfiguration
    do {
      config = try JSONDecoder().decode(AppConfiguration.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw ConfigurationError(problems: ["\(Self.path(context.codingPath + [key])): missing"])
    } catch let DecodingError.typeMismatch(type, context) {
      throw ConfigurationError(problems: ["\(Self.path(context.codingPath)): expected \(type)"])
    } catch let DecodingError.valueNotFound(type, context) {
      throw ConfigurationError(problems: ["\(Self.path(context.codingPath)): expected \(type), got null"])
    } catch let DecodingError.dataCorrupted(context) {
      throw ConfigurationError(problems: ["\(Self.path(context.codingPath)): \(context.debugDescription)"])
    }
    try config.validate(environment: environment)
    return config
  }

  /// Checks what decoding cannot: values, references between sections, secrets present.
  package func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    var problems: [String] = []
    if let base = forum.baseURL {
      if let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil {
      } else {
        problems.append("forum.baseURL: expected an http(s) URL, got \"\(base)\"")
      }
    }
    if forum.username.trimmingCharacters(in: .whitespaces).isEmpty {
      problems.append("forum.username: must not be empty")
    }
    if forum.password.resolve(environment: environment) == nil {
      problems.append("forum.password: \(forum.password) is not set")
    }
    if let zone = forum.timeZone, TimeZone(identifier: zone) == nil {
      problems.append("forum.timeZone: unknown time zone \"\(zone)\"")
    }
    if let zone = chatTimeZone, TimeZone(identifier: zone) == nil {
      problems.append("chatTimeZone: unknown time zone \"\(zone)\"")
    }
    if let spacing = forum.requestSpacingSeconds, spacing < 0 {
      problems.append("forum.requestSpacingSeconds: must be 0 or more")
    }
    for (key, value) in [
      ("bookmarksSeconds", polling?.bookmarksSeconds), ("announcementsSeconds", polling?.announcementsSeconds),
      ("forumsSeconds", polling?.forumsSeconds),
    ] {
      if let value, value < 5 { problems.append("polling.\(key): must be at least 5 seconds, got \(value)") }
    }
    var names = Set<String>()
    if transports.isEmpty { problems.append("transports: at least one transport is needed") }
    for (i, transport) in transports.enumerated() {
      if !["console"].contains(transport.type) {
        problems.append("transports[\(i)].type: unknown transport \"\(transport.type)\" (supported: console)")
      }
      if !names.insert(transport.resolvedName).inserted {
        problems.append("transports[\(i)].name: duplicate name \"\(transport.resolvedName)\"")
      }
    }
    for (i, grant) in (roles ?? []).enumerated() {
      if !names.contains(grant.transport) {
        problems.append("roles[\(i)].transport: no transport named \"\(grant.transport)\"")
      }
      if !["viewer", "member", "admin"].contains(grant.role) {
        problems.append("roles[\(i)].role: expected viewer, member or admin, got \"\(grant.role)\"")
      }
    }
    for (i, room) in (rooms ?? []).enumerated() {
      if !names.contains(room.transport) {
        problems.append("rooms[\(i)].transport: no transport named \"\(room.transport)\"")
      }
      for (j, subscription) in (room.subscriptions ?? []).enumerated()
      where RoomSubscriptionSpec(parsing: subscription) == nil {
        problems.append(
          "rooms[\(i)].subscriptions[\(j)]: expected bookmarks, bookmarks:<colour>, announcements, thread:<id> or "
            + "forum:<id>, got \"\(subscription)\"")
      }
      if let mode = room.mode, !["each", "summary", "digest"].contains(mode.split(separator: " ").first ?? "") {
        problems.append("rooms[\(i)].mode: expected each, summary or digest, got \"\(mode)\"")
      }
    }
    if let level = logLevel, !["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(level) {
      problems.append("logLevel: unknown level \"\(level)\"")
    }
    if !problems.isEmpty { throw ConfigurationError(problems: problems) }
  }

  static func path(_ keys: [any CodingKey]) -> String {
    var out = ""
    for key in keys {
      if let index = key.intValue {
        out += "[\(index)]"
      } else {
        out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return out.isEmpty ? "(top level)" : out
  }
}
