import ChatBridge
import ForumModel
import Foundation

/// A Discord transport's settings, as the config file writes them in `transports[]`:
///
/// ```json
/// {"type": "discord", "name": "discord",
///  "rooms": {"general": {"webhook": {"env": "DISCORD_GENERAL_WEBHOOK"}},
///            "alerts": {"webhook": "https://discord.com/api/webhooks/123/abc", "username": "Forum alerts"}},
///  "username": "AwfulBot"}
/// ```
///
/// A room is a channel's incoming webhook under a name of the operator's choosing (`general`), the name `rooms[]`,
/// subscriptions and messages use. The webhook URL is a secret (its token lets anyone post as it): write it as
/// `{"env": "NAME"}`, which the config reader resolves before this type decodes it. Decoding checks every key and
/// throws `DiscordConfigurationError` with all problems at once; a configuration that decodes is one the transport
/// runs with.
package struct DiscordTransportConfiguration: Decodable, Equatable, Sendable {
  package var name: String
  /// Room name → its webhook.
  package var rooms: [String: DiscordRoomSettings]
  /// The author name every message shows (a room's own `username` wins); nil: the webhook's name as set on Discord.
  package var username: String?
  /// False (the default): links are written `<https://…>`, which Discord shows as links without a preview card, so
  /// a relay is its text and not a picture of the forum's login page.
  package var linkPreviews: Bool
  /// How long one request may take before it counts as a network failure.
  package var requestTimeoutSeconds: Double
  /// A send waits out rate limits (429s, an exhausted bucket) up to this long in total, keeping the room's order;
  /// past it the row goes back to the dispatcher, which tries again when Discord said.
  package var maximumRateLimitWaitSeconds: Double
  /// Tries of one request on a 5xx or a network failure before the row goes back to the dispatcher.
  package var sendAttempts: Int

  package init(
    name: String = "discord", rooms: [String: DiscordRoomSettings] = [:], username: String? = nil,
    linkPreviews: Bool = false, requestTimeoutSeconds: Double = 15, maximumRateLimitWaitSeconds: Double = 120,
    sendAttempts: Int = 3
  ) {
    self.name = name
    self.rooms = rooms
    self.username = username
    self.linkPreviews = linkPreviews
    self.requestTimeoutSeconds = requestTimeoutSeconds
    self.maximumRateLimitWaitSeconds = maximumRateLimitWaitSeconds
    self.sendAttempts = sendAttempts
  }

  /// The config file's keys (beside `type`, which is the transport list's and ignored here).
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, rooms, username, linkPreviews, requestTimeoutSeconds, maximumRateLimitWaitSeconds, sendAttempts
  }

  enum RoomKeys: String, CodingKey, CaseIterable {
    case webhook, username
  }

  /// The keys a reload may change on a running transport: every one but `name` (a webhook is one request per
  /// message, so new settings take effect from the next send; see `DiscordTransport.reconfigure`).
  package static let liveKeys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue)).subtracting(["name"])

  package init(from decoder: any Decoder) throws {
    self.init()
    let secretsRequired = decoder.userInfo[.secretsOptional] as? Bool != true
    var problems: [ConfigProblem] = []
    let container = try decoder.container(keyedBy: AnyKey.self)
    let known = Set(CodingKeys.allCases.map(\.stringValue))
    for key in container.allKeys
    where !known.contains(key.stringValue) && key.stringValue != "type" && !key.stringValue.hasPrefix("_") {
      problems.append(.init(key.stringValue, "unknown key (expected one of \(known.sorted().joined(separator: ", ")))"))
    }
    func value<T: Decodable>(_ key: CodingKeys, _ type: T.Type, expected: String) -> T? {
      guard container.contains(AnyKey(key)) else { return nil }
      do {
        return try container.decode(T.self, forKey: AnyKey(key))
      } catch {
        problems.append(.init(key.stringValue, expected))
        return nil
      }
    }
    if let written = value(.name, String.self, expected: "expected a string") {
      if written.trimmingCharacters(in: .whitespaces).isEmpty {
        problems.append(.init("name", "must not be empty"))
      } else {
        name = written
      }
    }
    if let written = value(.username, String.self, expected: "expected a string") {
      if let problem = Self.usernameProblem(written) { problems.append(.init("username", problem)) }
      username = written
    }
    linkPreviews = value(.linkPreviews, Bool.self, expected: "expected true or false") ?? linkPreviews
    func seconds(_ key: CodingKeys, range: ClosedRange<Double>) -> Double? {
      guard let written = value(key, Double.self, expected: "expected a number of seconds") else { return nil }
      guard range.contains(written) else {
        problems.append(
          .init(key.stringValue, "expected a number of seconds from \(range.lowerBound) to \(range.upperBound)"))
        return nil
      }
      return written
    }
    requestTimeoutSeconds = seconds(.requestTimeoutSeconds, range: 1...300) ?? requestTimeoutSeconds
    maximumRateLimitWaitSeconds =
      seconds(.maximumRateLimitWaitSeconds, range: 0...Clamp.day) ?? maximumRateLimitWaitSeconds
    if let attempts = value(.sendAttempts, Int.self, expected: "expected a whole number") {
      if (1...10).contains(attempts) {
        sendAttempts = attempts
      } else {
        problems.append(.init("sendAttempts", "expected a whole number from 1 to 10"))
      }
    }
    if container.contains(AnyKey(.rooms)) {
      rooms = Self.rooms(in: container, secretsRequired: secretsRequired, problems: &problems)
    }
    if rooms.isEmpty, !problems.contains(where: { $0.key.hasPrefix("rooms") }) {
      problems.append(
        .init("rooms", "expected at least one room, like {\"general\": {\"webhook\": {\"env\": \"NAME\"}}}"))
    }
    if !problems.isEmpty { throw DiscordConfigurationError(problems) }
  }

  /// `rooms`: room name → `{"webhook": …, "username": …}`, every problem at `rooms.<name>.<key>`.
  private static func rooms(
    in container: KeyedDecodingContainer<AnyKey>, secretsRequired: Bool,
    problems: inout [ConfigProblem]
  ) -> [String: DiscordRoomSettings] {
    let roomsContainer: KeyedDecodingContainer<AnyKey>
    do {
      roomsContainer = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(.rooms))
    } catch {
      problems.append(.init("rooms", "expected an object of room name to {\"webhook\": …}"))
      return [:]
    }
    var rooms: [String: DiscordRoomSettings] = [:]
    var webhooks: [String: String] = [:]
    for roomKey in roomsContainer.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
      let room = roomKey.stringValue
      let path = "rooms.\(room)"
      if room.hasPrefix("_") { continue }  // a note (`_comment`)
      guard !room.trimmingCharacters(in: .whitespaces).isEmpty, !room.contains(where: \.isNewline) else {
        problems.append(.init(path, "a room name must be a non-empty line"))
        continue
      }
      guard let settings = try? roomsContainer.nestedContainer(keyedBy: AnyKey.self, forKey: roomKey) else {
        problems.append(.init(path, "expected an object like {\"webhook\": {\"env\": \"NAME\"}}"))
        continue
      }
      let known = Set(RoomKeys.allCases.map(\.stringValue))
      for key in settings.allKeys where !known.contains(key.stringValue) && !key.stringValue.hasPrefix("_") {
        problems.append(.init("\(path).\(key.stringValue)", "unknown key (expected webhook or username)"))
      }
      var entry = DiscordRoomSettings(webhook: nil)
      let webhookKey = AnyKey(stringValue: RoomKeys.webhook.stringValue)
      if settings.contains(webhookKey) {
        // Only the shape is reported: the value is a secret.
        if let written = try? settings.decode(String.self, forKey: webhookKey) {
          // Read without secrets (`status`, `setup`), a secret from the environment reads as empty: no webhook yet.
          let parsed: Result<DiscordWebhook, DiscordWebhook.Problem>? =
            written.isEmpty && !secretsRequired ? nil : DiscordWebhook.parse(written)
          switch parsed {
          case nil: break
          case .success(let webhook)?:
            entry.webhook = webhook
            if let other = webhooks[webhook.id] {
              problems.append(.init("\(path).webhook", "the same webhook as room \(other): each room needs its own"))
            }
            webhooks[webhook.id] = room
          case .failure(let problem)?: problems.append(.init("\(path).webhook", problem.description))
          }
        } else {
          problems.append(
            .init(
              "\(path).webhook",
              "expected a webhook URL as a string, or {\"env\": \"NAME\"} naming a variable that holds it"))
        }
      } else if secretsRequired {
        problems.append(
          .init(
            "\(path).webhook", "missing: give the channel's webhook URL, best as {\"env\": \"NAME\"} (it is a secret)"))
      }
      let usernameKey = AnyKey(stringValue: RoomKeys.username.stringValue)
      if settings.contains(usernameKey) {
        if let written = try? settings.decode(String.self, forKey: usernameKey) {
          if let problem = usernameProblem(written) { problems.append(.init("\(path).username", problem)) }
          entry.username = written
        } else {
          problems.append(.init("\(path).username", "expected a string"))
        }
      }
      rooms[room] = entry
    }
    return rooms
  }

  /// What Discord refuses as a webhook message's author name (400 otherwise, for every message): 1 to 80 characters,
  /// not containing "discord" or "clyde". nil when it is fine.
  static func usernameProblem(_ name: String) -> String? {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty || trimmed.count > 80 { return "expected 1 to 80 characters" }
    let lowered = trimmed.lowercased()
    if lowered.contains("discord") || lowered.contains("clyde") {
      return "Discord refuses author names containing \"discord\" or \"clyde\""
    }
    return nil
  }

  /// The author name for `room`.
  func username(for room: String) -> String? { rooms[room]?.username ?? username }

  /// Reads any key, so unknown ones can be named.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(_ key: CodingKeys) { stringValue = key.stringValue }
  }
}
