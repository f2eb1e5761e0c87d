import AwfulBotApp
import BotCore
import ChatBridge
import Foundation
import IRCTransport
import Testing

/// Each section of the configuration is a `Decodable` type that checks its own keys: read on its own, it reports
/// every problem naming the key; garbage where an object belongs is one clear problem, never a crash or a quiet
/// default.
@Suite("configuration section readers")
struct ConfigSectionReaderTests {
  /// The problems reading `json` as `T` on its own reports (empty: it read).
  private static func problems<T: Decodable>(
    _ type: T.Type, _ json: String, environment: [String: String] = [:]
  ) -> [String] {
    do {
      _ = try ConfigurationDecoding.decode(T.self, from: Data(json.utf8), environment: environment)
      return []
    } catch let error as ConfigurationError {
      return error.problems
    } catch {
      return ["unexpected: \(error)"]
    }
  }

  private static func read<T: Decodable>(_ type: T.Type, _ json: String, environment: [String: String] = [:]) throws
    -> T
  {
    try ConfigurationDecoding.decode(T.self, from: Data(json.utf8), environment: environment)
  }

  /// Values that are no section at all.
  static let garbage: [(json: String, kind: String)] = [
    ("[1, 2, 3]", "a list"), ("\"polling\"", "a string"), ("42", "a number"), ("true", "a boolean"),
  ]

  @Test("garbage where a section belongs is one problem naming what was found", arguments: garbage)
  func garbageSections(json: String, kind: String) {
    let expected = ["(top level): expected an object, got \(kind)"]
    #expect(Self.problems(AppConfiguration.ForumSettings.self, json) == expected)
    #expect(Self.problems(AppConfiguration.PollingSettings.self, json) == expected)
    #expect(Self.problems(AppConfiguration.CommandSettings.self, json) == expected)
    #expect(Self.problems(AppConfiguration.RoleGrant.self, json) == expected)
    #expect(Self.problems(AppConfiguration.RoomSettings.self, json) == expected)
    #expect(Self.problems(AppConfiguration.PrivateMessageSettings.self, json) == expected)
    #expect(Self.problems(LoggingSettings.self, json) == expected)
    #expect(Self.problems(MetricsSettings.self, json) == expected)
    #expect(Self.problems(BackupSettings.self, json) == expected)
    #expect(Self.problems(TransportSettings.self, json) == expected)
    #expect(Self.problems(AppConfiguration.self, json) == expected)
  }

  @Test("forum: hostile values name their keys; the password never appears")
  func forum() throws {
    #expect(
      Self.problems(
        AppConfiguration.ForumSettings.self,
        ##"{"username": ["x"], "password": "hunter2-secret", "baseURL": "javascript:alert(1)", "cookies": {"a b": "x", "cf": 3}, "userAgent": "two\nlines"}"##
      ) == [
        "baseURL: expected an http(s) URL, got \"javascript:alert(1)\"",
        "username: expected a string, got a list",
        "cookies.a b: is not a cookie name",
        "cookies.cf: expected a string or {\"env\": \"VARIABLE\"}, got a number",
        "userAgent: must be one line of text, as the browser sends it",
      ])
    let secretProblems = Self.problems(
      AppConfiguration.ForumSettings.self,
      ##"{"username": "bot", "password": {"env": "PW"}, "cookies": {"cf": "a;b"}}"##,
      environment: ["PW": "hunter2-secret"])
    #expect(secretProblems == ["cookies.cf: a cookie value has no spaces, commas or semicolons"])
    #expect(!secretProblems.joined().contains("a;b"))
    let forum = try Self.read(
      AppConfiguration.ForumSettings.self, ##"{"username": "bot", "announcementsForumID": 46}"##,
      environment: ["AWFULBOT_FORUM_PASSWORD": "pw"])
    #expect(forum.announcementsForumID == "46" && forum.password == SecretValue(environment: "AWFULBOT_FORUM_PASSWORD"))
  }

  @Test("polling: each interval, the floor and the ceiling, the cap")
  func polling() throws {
    #expect(
      Self.problems(
        AppConfiguration.PollingSettings.self,
        ##"{"bookmarksSeconds": "sixty", "forumsMinimumSeconds": 400, "replayCap": 1e300, "maximumBackoffSeconds": -1, "bookmarkSeconds": 60}"##
      ) == [
        "bookmarkSeconds: unknown key (did you mean \"bookmarksSeconds\"?)",
        "bookmarksSeconds: expected a number, got a string",
        "forumsMinimumSeconds: must not be above forumsSeconds (300.0), got 400.0",
        "replayCap: expected a whole number, got 1e+300",
        "maximumBackoffSeconds: must be at least 30 seconds, got -1.0",
      ])
    let polling = try Self.read(AppConfiguration.PollingSettings.self, ##"{"bookmarksSeconds": 90, "replayCap": 3}"##)
    #expect(polling == .init(bookmarksSeconds: 90, replayCap: 3))
  }

  @Test("commands: prefix, name and limits")
  func commands() {
    #expect(
      Self.problems(
        AppConfiguration.CommandSettings.self,
        ##"{"prefix": "", "botName": null, "userCommandsPerMinute": -3, "roomCommandsPerMinute": 1e6, "forumRequestsPerMinute": {}}"##
      ) == [
        "prefix: expected one or more non-space characters, got \"\"",
        "userCommandsPerMinute: expected 0 (no limit) to 10000, got -3",
        "roomCommandsPerMinute: expected 0 (no limit) to 10000, got 1000000",
        "forumRequestsPerMinute: expected a number, got an object",
      ])
    #expect(
      Self.problems(
        AppConfiguration.CommandSettings.self, ##"{"forumsPerRoom": -1, "watchedThreadsPerRoom": "many"}"##)
        == [
          "forumsPerRoom: expected 0 (no limit) to 10000, got -1",
          "watchedThreadsPerRoom: expected a number, got a string",
        ])
    #expect(
      Self.problems(AppConfiguration.CommandSettings.self, ##"{"userSearchesPerMinute": -2}"##)
        == ["userSearchesPerMinute: expected 0 (no limit) to 10000, got -2"])
  }

  @Test("commands: the searches a user may start in a minute reach the command budget, 1 when unsaid")
  func userSearchesPerMinute() throws {
    let three = try Self.read(AppConfiguration.CommandSettings.self, ##"{"userSearchesPerMinute": 3}"##)
    #expect(three.budgetLimits.userSearchesPerMinute == 3)
    let unsaid = try Self.read(AppConfiguration.CommandSettings.self, "{}")
    #expect(unsaid.budgetLimits.userSearchesPerMinute == 1)
  }

  @Test("roles: a role is a Role, read in any case; anything else names the key")
  func roles() throws {
    let grant = try Self.read(
      AppConfiguration.RoleGrant.self, ##"{"transport": "irc", "user": "alice", "role": "ADMIN"}"##)
    #expect(grant.role == .admin)
    #expect(
      Self.problems(AppConfiguration.RoleGrant.self, ##"{"transport": 1, "user": "alice", "role": "root", "rol": 1}"##)
        == [
          "rol: unknown key (did you mean \"role\"?)", "transport: expected a string, got a number",
          "role: expected viewer, member or admin, got \"root\"",
        ])
  }

  @Test("rooms: subscriptions, mode and reply role in the commands' grammar")
  func rooms() throws {
    #expect(
      Self.problems(
        AppConfiguration.RoomSettings.self,
        ##"{"transport": "irc", "room": "#a", "subscriptions": ["thread:x", 7], "mode": "summary 0", "replyRole": "god", "reactions": "yes"}"##
      ) == [
        "subscriptions[0]: expected bookmarks, bookmarks:<colour>, announcements, thread:<id>, forum:<id> or lepers, "
          + "got \"thread:x\"",
        "subscriptions[1]: expected a string, got a number",
        "mode: expected each, summary [K], digest hourly or digest daily HH:MM, got \"summary 0\" "
          + "(K is a number of posts from 1 to 1000.)",
        "replyRole: expected off, viewer, member or admin, got \"god\"",
        "reactions: expected true or false, got a string",
      ])
    let room = try Self.read(
      AppConfiguration.RoomSettings.self, ##"{"transport": "irc", "room": "#a", "replyRole": "Member"}"##)
    #expect(room.replyRole == ReplyPermission(name: "member"))
  }

  @Test("privateMessages: each room once, where it stands")
  func privateMessages() {
    #expect(
      Self.problems(
        AppConfiguration.PrivateMessageSettings.self,
        ##"{"rooms": [{"transport": "m", "room": "!a:b"}, "!a:b", {"transport": "m", "room": "!a:b"}, {"transport": "m", "room": " "}], "excerpt": 1}"##
      ) == [
        "rooms[1]: expected an object, got a string",
        "rooms[3].room: must not be empty",
        // A room named twice is known once every room is read.
        "rooms[2]: names m !a:b a second time",
        "excerpt: expected true or false, got a number",
      ])
  }

  @Test("logging, metrics and backup")
  func smallSections() throws {
    #expect(
      Self.problems(LoggingSettings.self, ##"{"level": "LOUD", "format": ["json"]}"##) == [
        "level: expected one of trace, debug, info, notice, warning, error, critical, got \"LOUD\"",
        "format: expected a string, got a list",
      ])
    #expect(
      Self.problems(MetricsSettings.self, ##"{"listen": "0.0.0.0:99999", "enabled": null, "port": 1}"##) == [
        "port: unknown key", "listen: expected host:port like 127.0.0.1:9464, got \"0.0.0.0:99999\"",
      ])
    #expect(
      Self.problems(BackupSettings.self, ##"{"everyHours": 0.5, "keep": 0, "directory": " "}"##) == [
        "everyHours: expected 1 to 8760 hours, got 0.5",
        "keep: must be at least 1 (leave the backup section out for no backups), got 0",
        "directory: must not be empty (leave it out for backups in dataDirectory)",
      ])
    #expect(try Self.read(MetricsSettings.self, ##"{"enabled": false}"##) == MetricsSettings(enabled: false))
  }

  @Test("transports: the type is a TransportType; each kind checks its own keys; secrets stay out of problems")
  func transports() throws {
    #expect(
      Self.problems(TransportSettings.self, ##"{"type": "Matrix"}"##) == [
        "type: unknown transport \"Matrix\" (supported: \(TransportType.supported))"
      ])
    #expect(Self.problems(TransportSettings.self, ##"{"type": ["irc"]}"##) == ["type: expected a string, got a list"])
    let irc = Self.problems(
      TransportSettings.self,
      ##"{"type": "irc", "server": "irc.example.org:6697", "nick": "bot", "nickServPassword": "hunter2", "sasl": {"mechanism": "PLAIN", "account": "bot", "password": "hunter2", "pasword": 1}, "editNotices": ["goons"], "linesPerMessage": "4"}"##
    )
    #expect(
      irc == [
        "sasl.pasword: unknown key (mechanism, account, password)",
        "editNotices: moved to the channels' own settings: give each channel \"editNotices\": true in its rooms[] "
          + "entry, or say !editnotices on in the channel",
        "linesPerMessage: expected a number, got a string",
      ])
    #expect(!irc.joined().contains("hunter2"))
    #expect(
      Self.problems(
        TransportSettings.self,
        ##"{"type": "irc", "server": "irc.example.org:6697", "nick": "bot", "nickServPassword": {"env": 3}}"##)
        == ["nickServPassword: expected a string or {\"env\": \"VARIABLE\"}"])
    #expect(
      Self.problems(TransportSettings.self, ##"{"type": "console", "name": "../etc", "room": "x"}"##) == [
        "name: expected letters, digits, - or _, got \"../etc\"", "room: unknown key for a console transport",
      ])
    let matrix = Self.problems(
      TransportSettings.self,
      ##"{"type": "matrix", "homeserver": "file:///etc/passwd", "userID": "@bot:example.org", "accessToken": "syt_hunter2", "memberPowerLevel": "50", "roleOverrides": {"@a:b.c": "owner"}}"##
    )
    // In the file's order (the transport's decoding reads the shapes too, as IRC's does).
    #expect(
      matrix == [
        "homeserver: expected an http(s) URL, got \"file:///etc/passwd\"",
        "memberPowerLevel: expected a number, got a string",
        "roleOverrides.@a:b.c: expected viewer, member or admin",
      ])
    #expect(!matrix.joined().contains("hunter2"))
    let console = try Self.read(TransportSettings.self, ##"{"type": "console", "name": "tty"}"##)
    #expect(console.type == .console && console.resolvedName == "tty")
  }

  @Test("a section decoded with a plain JSONDecoder throws every problem, those of its list items too")
  func plainDecoder() {
    let json = ##"{"rooms": [{"transport": "m"}, 3], "excerpt": "no"}"##
    let error = #expect(throws: ConfigurationError.self) {
      try JSONDecoder().decode(AppConfiguration.PrivateMessageSettings.self, from: Data(json.utf8))
    }
    #expect(
      error?.problems == [
        "rooms[0].room: missing", "rooms[1]: expected an object, got a number",
        "excerpt: expected true or false, got a string",
      ])
  }

  @Test("setup reads its answers with the sections' readers: a bad answer names the key it goes to")
  func setupAnswers() {
    var answers = SetupAnswers()
    answers.forumUsername = "bot"
    answers.forumPassword = "hunter2"
    answers.transport = .console
    answers.forumBaseURL = "forums.somethingawful.com"
    answers.forumTimeZone = "Mars/Base"
    answers.metricsListen = "9464"
    let error = #expect(throws: SetupError.self) { try SetupWizard.configuration(from: answers) }
    #expect(
      error?.description
        == "forum.baseURL: expected an http(s) URL, got \"forums.somethingawful.com\"; "
        + "forum.timeZone: unknown time zone \"Mars/Base\"")
    answers.forumBaseURL = nil
    answers.forumTimeZone = nil
    let metrics = #expect(throws: SetupError.self) { try SetupWizard.configuration(from: answers) }
    #expect(metrics?.description == "metrics.listen: expected host:port like 127.0.0.1:9464, got \"9464\"")
  }

  @Test("every key of a section is compared by the reload diff")
  func everyKeyCompared() throws {
    let before = try Self.read(AppConfiguration.PollingSettings.self, "{}")
    var named: [String] = []
    for (key, json) in [
      ("bookmarksSeconds", ##"{"bookmarksSeconds": 61}"##), ("replayCap", ##"{"replayCap": 2}"##),
      ("forumsMinimumSeconds", ##"{"forumsMinimumSeconds": 61}"##),
      ("bookmarksFullSweepSeconds", ##"{"bookmarksFullSweepSeconds": 600}"##),
    ] {
      let after = try Self.read(AppConfiguration.PollingSettings.self, json)
      let changes = ConfigurationChanges(
        from: try Self.configuration(polling: before), to: try Self.configuration(polling: after))
      #expect(changes.restartKeys == (key == "replayCap" ? ["polling.replayCap"] : []), "\(key)")
      #expect(changes.pollIntervals == (key != "replayCap"), "\(key)")
      named.append(key)
    }
    #expect(named.count == 4)
    var withCookies = try Self.configuration(polling: before)
    withCookies.forum.userAgent = "Mozilla/5.0"
    withCookies.forum.cookies = ["cf_clearance": SecretValue(environment: "CF")]
    let forum = ConfigurationChanges(from: try Self.configuration(polling: before), to: withCookies)
    #expect(forum.restartKeys == ["forum.cookies", "forum.userAgent"])
  }

  private static func configuration(polling: AppConfiguration.PollingSettings) throws -> AppConfiguration {
    AppConfiguration(
      forum: .init(username: "bot", password: SecretValue(literal: "pw")), polling: polling,
      transports: [.console()])
  }
}
