import BotCore
import ChatBridge
import Foundation
import Logging

/// The bot's JSON configuration (`awfulbot run --config FILE`). See `config.example.json` for every key.
///
/// Each section is its own `Decodable` type that checks its keys as it is read (`Sections/*+Reading.swift`), so
/// loading (`AppConfiguration.load`) reports every problem at once with its key path; encoding writes a
/// configuration back as the file has it (`setup`). Each section's `CodingKeys` name its keys for the reload diff.
package struct AppConfiguration: Sendable, Encodable, Hashable {
  package struct ForumSettings: Sendable, Encodable, Hashable {
    package var baseURL: URL?
    package var username: String
    /// Default when the key is absent: the `AWFULBOT_FORUM_PASSWORD` environment variable.
    package var password: SecretValue
    package var timeZone: TimeZone?
    /// Minimum seconds between two requests to the forum (politeness).
    package var requestSpacingSeconds: Double?
    package var requestTimeoutSeconds: Double?
    /// The forum whose thread list supplies announcement titles (any forum lists them; default 1).
    package var announcementsForumID: String?
    /// Let the forum's "last read" markers follow what the bot relayed (off: the bot never moves them).
    package var updateReadMarkers: Bool?
    /// Cookies from a browser that passed a wall in front of the forum (`cf_clearance`), each a secret.
    package var cookies: [String: SecretValue] = [:]
    /// The User-Agent the bot sends instead of its own: the browser's, which a `cf_clearance` is bound to.
    package var userAgent: String?

    package init(
      baseURL: URL? = nil, username: String, password: SecretValue, timeZone: TimeZone? = nil,
      requestSpacingSeconds: Double? = nil, requestTimeoutSeconds: Double? = nil, announcementsForumID: String? = nil,
      updateReadMarkers: Bool? = nil
    ) {
      self.announcementsForumID = announcementsForumID
      self.baseURL = baseURL
      self.username = username
      self.password = password
      self.timeZone = timeZone
      self.requestSpacingSeconds = requestSpacingSeconds
      self.requestTimeoutSeconds = requestTimeoutSeconds
      self.updateReadMarkers = updateReadMarkers
    }

    /// The environment variable read when the config has no `forum.password`.
    package static let passwordVariable = "AWFULBOT_FORUM_PASSWORD"

    enum CodingKeys: String, CodingKey, CaseIterable {
      case baseURL, username, password, timeZone, requestSpacingSeconds, requestTimeoutSeconds
      case announcementsForumID, updateReadMarkers, cookies, userAgent
    }

    /// Written as the config file has it (the zone by its identifier).
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(baseURL?.absoluteString, forKey: .baseURL)
      try container.encode(username, forKey: .username)
      try container.encode(password, forKey: .password)
      try container.encodeIfPresent(timeZone?.identifier, forKey: .timeZone)
      try container.encodeIfPresent(requestSpacingSeconds, forKey: .requestSpacingSeconds)
      try container.encodeIfPresent(requestTimeoutSeconds, forKey: .requestTimeoutSeconds)
      try container.encodeIfPresent(announcementsForumID, forKey: .announcementsForumID)
      try container.encodeIfPresent(updateReadMarkers, forKey: .updateReadMarkers)
      if !cookies.isEmpty { try container.encode(cookies, forKey: .cookies) }
      try container.encodeIfPresent(userAgent, forKey: .userAgent)
    }
  }

  package struct PollingSettings: Sendable, Encodable, Hashable {
    /// The longest wait between bookmarks checks (default 60): the pace backs off to it while nothing moves.
    package var bookmarksSeconds: Double?
    /// The shortest (default 10): the wait after a check that found a thread moved.
    package var bookmarksMinimumSeconds: Double?
    /// How often the whole bookmarks list is read (default 3600); a check reads from the top until nothing moved.
    package var bookmarksFullSweepSeconds: Double?
    package var announcementsSeconds: Double?
    /// The longest wait between reads of a watched forum (default 300).
    package var forumsSeconds: Double?
    /// The shortest (default 60): the wait after a read that found a new thread.
    package var forumsMinimumSeconds: Double?
    /// The private-message inbox (default 300; polled only while `privateMessages.rooms` names a room).
    package var privateMessagesSeconds: Double?
    /// The Leper's Colony (default 300; read only while some room follows it).
    package var lepersSeconds: Double?
    /// Most posts of one thread relayed one by one per cycle; the rest become one summary line.
    package var replayCap: Int?
    /// Longest wait between polls of a failing source (backoff ceiling).
    package var maximumBackoffSeconds: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case bookmarksSeconds, bookmarksMinimumSeconds, bookmarksFullSweepSeconds, announcementsSeconds, forumsSeconds
      case forumsMinimumSeconds, privateMessagesSeconds, replayCap, maximumBackoffSeconds, lepersSeconds
    }

    package init(
      bookmarksSeconds: Double? = nil, announcementsSeconds: Double? = nil, forumsSeconds: Double? = nil,
      replayCap: Int? = nil, maximumBackoffSeconds: Double? = nil, privateMessagesSeconds: Double? = nil,
      bookmarksMinimumSeconds: Double? = nil, bookmarksFullSweepSeconds: Double? = nil,
      forumsMinimumSeconds: Double? = nil, lepersSeconds: Double? = nil
    ) {
      self.lepersSeconds = lepersSeconds
      self.bookmarksMinimumSeconds = bookmarksMinimumSeconds
      self.bookmarksFullSweepSeconds = bookmarksFullSweepSeconds
      self.forumsMinimumSeconds = forumsMinimumSeconds
      self.privateMessagesSeconds = privateMessagesSeconds
      self.bookmarksSeconds = bookmarksSeconds
      self.announcementsSeconds = announcementsSeconds
      self.forumsSeconds = forumsSeconds
      self.replayCap = replayCap
      self.maximumBackoffSeconds = maximumBackoffSeconds
    }
  }

  package struct CommandSettings: Sendable, Encodable, Hashable {
    package var prefix: String?
    package var botName: String?
    /// The command budget (`CommandBudget.Limits`); nil keeps each default, 0 turns a limit off.
    package var userCommandsPerMinute: Int?
    package var roomCommandsPerMinute: Int?
    package var forumRequestsPerMinute: Int?
    /// Searches one user may make a minute (`search`); nil keeps the default of one, 0 turns the limit off.
    package var userSearchesPerMinute: Int?
    /// Most forums one room may follow, and threads it may watch, by command (`EngineConfiguration`'s caps); nil
    /// keeps each default, 0 turns a cap off.
    package var forumsPerRoom: Int?
    package var watchedThreadsPerRoom: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case prefix, botName, userCommandsPerMinute, roomCommandsPerMinute, forumRequestsPerMinute
      case forumsPerRoom, watchedThreadsPerRoom, userSearchesPerMinute
    }

    package init(
      prefix: String? = nil, botName: String? = nil, userCommandsPerMinute: Int? = nil,
      roomCommandsPerMinute: Int? = nil, forumRequestsPerMinute: Int? = nil, forumsPerRoom: Int? = nil,
      watchedThreadsPerRoom: Int? = nil, userSearchesPerMinute: Int? = nil
    ) {
      self.userSearchesPerMinute = userSearchesPerMinute
      self.prefix = prefix
      self.botName = botName
      self.userCommandsPerMinute = userCommandsPerMinute
      self.roomCommandsPerMinute = roomCommandsPerMinute
      self.forumRequestsPerMinute = forumRequestsPerMinute
      self.forumsPerRoom = forumsPerRoom
      self.watchedThreadsPerRoom = watchedThreadsPerRoom
    }

    /// The limits these settings give, defaults where they say nothing.
    package var budgetLimits: CommandBudget.Limits {
      let standard = CommandBudget.Limits.standard
      return CommandBudget.Limits(
        userCommandsPerMinute: userCommandsPerMinute ?? standard.userCommandsPerMinute,
        roomCommandsPerMinute: roomCommandsPerMinute ?? standard.roomCommandsPerMinute,
        forumRequestsPerMinute: forumRequestsPerMinute ?? standard.forumRequestsPerMinute,
        userSearchesPerMinute: userSearchesPerMinute ?? standard.userSearchesPerMinute)
    }
  }

  /// A role grant: `user` on `transport` gets `role` (viewer, member, admin).
  package struct RoleGrant: Sendable, Encodable, Hashable {
    package var transport: String
    package var user: String
    /// Typed when the config is read; an unknown name is a configuration error, never a quiet viewer.
    package var role: Role
    /// The person's forum username: `alert` on it counts as "their own name" (a member may set it). Nothing else
    /// tells the bot who someone is on the forum: a chat display name or nick is anyone's to choose.
    package var forumName: String?
    package init(transport: String, user: String, role: Role, forumName: String? = nil) {
      self.transport = transport
      self.user = user
      self.role = role
      self.forumName = forumName
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case transport, user, role, forumName
    }

    /// Written by name, as the config file has it.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(transport, forKey: .transport)
      try container.encode(user, forKey: .user)
      try container.encode(role.description, forKey: .role)
      try container.encodeIfPresent(forumName, forKey: .forumName)
    }
  }

  /// A room seeded at start with its subscriptions, e.g. `["bookmarks", "bookmarks:red", "announcements",
  /// "thread:3522091", "forum:46"]`.
  package struct RoomSettings: Sendable, Encodable, Hashable {
    package var transport: String
    package var room: String
    package var subscriptions: [RoomSubscriptionSpec]?
    package var mode: RelayMode?
    /// Who may post to the forum from the room by answering relayed posts (`replyRole`; default admin).
    package var replyRole: ReplyPermission?
    /// Whether reactions on relays act as commands (default on).
    package var reactions: Bool?
    /// Whether the room is told when a relayed post is edited, where its transport cannot edit (IRC; default off).
    package var editNotices: Bool?
    /// How the room shows pictures of relayed posts, where its transport can (Matrix; default inline).
    package var pictures: PictureDisplay?
    package init(
      transport: String, room: String, subscriptions: [RoomSubscriptionSpec]? = nil, mode: RelayMode? = nil,
      replyRole: ReplyPermission? = nil, reactions: Bool? = nil, editNotices: Bool? = nil,
      pictures: PictureDisplay? = nil
    ) {
      self.transport = transport
      self.room = room
      self.subscriptions = subscriptions
      self.mode = mode
      self.replyRole = replyRole
      self.reactions = reactions
      self.editNotices = editNotices
      self.pictures = pictures
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case transport, room, subscriptions, mode, replyRole, reactions, editNotices, pictures
    }

    /// Written by name, as the config file has it.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(transport, forKey: .transport)
      try container.encode(room, forKey: .room)
      try container.encodeIfPresent(subscriptions?.map(\.description), forKey: .subscriptions)
      try container.encodeIfPresent(mode?.writtenForm, forKey: .mode)
      try container.encodeIfPresent(replyRole, forKey: .replyRole)
      try container.encodeIfPresent(reactions, forKey: .reactions)
      try container.encodeIfPresent(editNotices, forKey: .editNotices)
      try container.encodeIfPresent(pictures, forKey: .pictures)
    }
  }

  /// A room named as in `rooms[]`: the transport's name and the room (a Matrix id or alias, an IRC channel).
  package struct RoomReference: Sendable, Encodable, Hashable {
    package var transport: String
    package var room: String

    enum CodingKeys: String, CodingKey, CaseIterable {
      case transport, room
    }
    package init(transport: String, room: String) {
      self.transport = transport
      self.room = room
    }
  }

  /// Alerts for new private messages to the bot account. Off unless rooms are named; the text stays out of chat
  /// unless `excerpt` is true.
  package struct PrivateMessageSettings: Sendable, Encodable, Hashable {
    package var rooms: [RoomReference]
    package var excerpt: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case rooms, excerpt
    }
    package init(rooms: [RoomReference], excerpt: Bool? = nil) {
      self.rooms = rooms
      self.excerpt = excerpt
    }
  }

  package var forum: ForumSettings
  package var dataDirectory: String?
  package var polling: PollingSettings?
  package var commands: CommandSettings?
  package var transports: [TransportSettings]
  package var roles: [RoleGrant]?
  package var rooms: [RoomSettings]?
  package var privateMessages: PrivateMessageSettings?
  package var logging: LoggingSettings?
  package var metrics: MetricsSettings?
  /// Scheduled online backups of the database while `run` goes on; nil: none.
  package var backup: BackupSettings?
  /// Older spelling of `logging.level`, still read.
  package var logLevel: Logger.Level?
  /// Time zone for quiet hours, digest times and dates shown in chat (default UTC).
  package var chatTimeZone: TimeZone?

  package init(
    forum: ForumSettings, dataDirectory: String? = nil, polling: PollingSettings? = nil,
    commands: CommandSettings? = nil, transports: [TransportSettings], roles: [RoleGrant]? = nil,
    rooms: [RoomSettings]? = nil, logging: LoggingSettings? = nil, metrics: MetricsSettings? = nil,
    logLevel: Logger.Level? = nil, chatTimeZone: TimeZone? = nil, privateMessages: PrivateMessageSettings? = nil,
    backup: BackupSettings? = nil
  ) {
    self.backup = backup
    self.privateMessages = privateMessages
    self.chatTimeZone = chatTimeZone
    self.forum = forum
    self.dataDirectory = dataDirectory
    self.polling = polling
    self.commands = commands
    self.transports = transports
    self.roles = roles
    self.rooms = rooms
    self.logging = logging
    self.metrics = metrics
    self.logLevel = logLevel
  }

  /// The log level in effect: `logging.level`, else `logLevel`, else `info`.
  package var effectiveLogLevel: Logger.Level { logging?.level ?? logLevel ?? .info }

  /// In the order the sections are read and their problems reported.
  enum CodingKeys: String, CodingKey, CaseIterable {
    case forum, dataDirectory, polling, commands, transports, roles, rooms, logging, metrics, logLevel, chatTimeZone
    case privateMessages, backup
  }

  /// Written as the config file has it (the zone by its identifier), for `setup`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(forum, forKey: .forum)
    try container.encodeIfPresent(dataDirectory, forKey: .dataDirectory)
    try container.encodeIfPresent(polling, forKey: .polling)
    try container.encodeIfPresent(commands, forKey: .commands)
    try container.encode(transports, forKey: .transports)
    try container.encodeIfPresent(roles, forKey: .roles)
    try container.encodeIfPresent(rooms, forKey: .rooms)
    try container.encodeIfPresent(privateMessages, forKey: .privateMessages)
    try container.encodeIfPresent(logging, forKey: .logging)
    try container.encodeIfPresent(metrics, forKey: .metrics)
    try container.encodeIfPresent(logLevel, forKey: .logLevel)
    try container.encodeIfPresent(chatTimeZone?.identifier, forKey: .chatTimeZone)
    try container.encodeIfPresent(backup, forKey: .backup)
  }

  /// Where the database lives: `dataDirectory/awfulbot.sqlite` (the working directory when unset).
  package var databasePath: String { Self.databasePath(dataDirectory: dataDirectory) }

  static func databasePath(dataDirectory: String?) -> String {
    URL(fileURLWithPath: dataDirectory ?? FileManager.default.currentDirectoryPath)
      .appendingPathComponent("awfulbot.sqlite").path
  }
}
