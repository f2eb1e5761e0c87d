import ChatBridge
import FakeForum
import Foundation

/// The configuration file of the soak's `awfulbot run`: one Matrix transport in a plain and an encrypted room, one
/// IRC transport in a channel and the console, every room following the bookmarks, the announcements and the
/// watched forum, and told of private messages. Secrets are named by environment variable, as in production.
struct SoakBotConfiguration: Sendable {
  var forumURL: URL
  var dataDirectory: URL
  var spacing: Double
  var metricsPort: Int
  var homeserver: URL
  var botUserID: String
  var plainRoom: String
  var encryptedRoom: String
  var inviters: [String]
  var ircServer: String
  var ircNick: String
  var ircChannel: String
  var ircAccount: String

  /// Variables the file names; the soak sets them in the bot's environment.
  static let forumPasswordVariable = "AWFULBOT_FORUM_PASSWORD"
  static let matrixTokenVariable = "AWFULBOT_MATRIX_ACCESS_TOKEN"
  static let matrixPasswordVariable = "AWFULBOT_MATRIX_PASSWORD"
  static let ircPasswordVariable = "AWFULBOT_IRC_SASL_PASSWORD"

  var rooms: [(transport: String, room: String)] {
    [("matrix", plainRoom), ("matrix", encryptedRoom), ("irc", ircChannel), ("console", "console")]
  }

  var json: JSONValue {
    let subscriptions: JSONValue = ["bookmarks", "announcements", .string("forum:\(SoakForum.watchedForum)")]
    return [
      "forum": [
        "baseURL": .string(forumURL.absoluteString + "/"), "username": .string(FakeForumSeed.botUsername),
        "password": ["env": .string(Self.forumPasswordVariable)], "requestSpacingSeconds": .number(spacing),
        "announcementsForumID": "273",
      ],
      "dataDirectory": .string(dataDirectory.path),
      // Paced as in production but at the shortest waits the checker allows, so a steady stream of events is read
      // within seconds; a replay cap no burst reaches, so every post is relayed on its own and can be counted.
      "polling": [
        "bookmarksSeconds": 30, "bookmarksMinimumSeconds": 5, "forumsSeconds": 30, "forumsMinimumSeconds": 10,
        "announcementsSeconds": 30, "privateMessagesSeconds": 30, "replayCap": 100_000,
      ],
      "transports": [
        [
          "type": "matrix", "name": "matrix", "homeserver": .string(homeserver.absoluteString),
          "userID": .string(botUserID), "accessToken": ["env": .string(Self.matrixTokenVariable)],
          // The password answers the homeserver's user-interactive auth when the bot sets up cross-signing.
          "password": ["env": .string(Self.matrixPasswordVariable)], "deviceName": "awfulbot-soak",
          "rooms": [.string(plainRoom), .string(encryptedRoom)],
          "allowedInviters": .array(inviters.map { .string($0) }),
        ],
        [
          "type": "irc", "name": "irc", "server": .string(ircServer), "tls": false, "nick": .string(ircNick),
          "channels": [.string(ircChannel)],
          "sasl": [
            "mechanism": "PLAIN", "account": .string(ircAccount),
            "password": ["env": .string(Self.ircPasswordVariable)],
          ],
        ],
        ["type": "console", "name": "console"],
      ],
      "rooms": .array(
        rooms.map { room -> JSONValue in
          [
            "transport": .string(room.transport), "room": .string(room.room), "subscriptions": subscriptions,
            "mode": "each",
          ]
        }),
      "privateMessages": [
        "rooms": .array(
          rooms.map { room -> JSONValue in ["transport": .string(room.transport), "room": .string(room.room)] })
      ],
      "logging": ["level": "info", "format": "text"],
      // Scraped by the soak as Prometheus would, so the listener's own memory is part of what is measured.
      "metrics": ["enabled": true, "listen": .string("127.0.0.1:\(metricsPort)")],
    ]
  }

  func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(json).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
  }
}
