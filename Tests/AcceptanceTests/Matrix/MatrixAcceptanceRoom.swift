import AsyncHTTPClient
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import MatrixTransport
import Testing

/// A Matrix room as the people in it meet the bot: the owner who created it (a room creator, so admin by power), a
/// moderator (power 50, the member role), a plain user (power 0, a viewer), optionally an admin the bot's config names
/// (power 0), and the bot, all ordinary accounts on Synapse talking through the client-server API. What they read is taken from the room's history, as a client shows
/// it: every `m.room.message` in timeline order, the `body` and the `formatted_body`.
struct MatrixAcceptanceRoom: Sendable {
  /// Links to the emulator (whose port changes every run) are shown under this host in transcripts.
  static let forumHost = "https://forum.example"

  let world: MatrixTestWorld
  let bot: MatrixBotProcess
  let id: String
  let owner: MatrixHuman
  let moderator: MatrixHuman
  let plain: MatrixHuman
  let admin: MatrixHuman?
  /// Who is who in a transcript: user id → "owner", "moderator", "plain", "admin", "bot".
  let names: [String: String]

  /// Registers the three people, has the owner create the room with the moderator at power 50 and invite everyone,
  /// and waits until all of them (the bot included) are in.
  ///
  /// - Parameter configuredAdmin: someone the bot's config makes admin (`roleOverrides`); joins at power 0.
  static func open(world: MatrixTestWorld, bot: MatrixBotProcess, configuredAdmin: MatrixHuman? = nil) async throws
    -> MatrixAcceptanceRoom
  {
    let owner = try await MatrixHuman.register("owner")
    let moderator = try await MatrixHuman.register("moderator")
    let plain = try await MatrixHuman.register("plain")
    let people = [moderator, plain] + (configuredAdmin.map { [$0] } ?? [])
    let room = try await owner.createRoom(
      name: "forum chat", invite: [bot.transport.configuration.userID] + people.map(\.userID),
      power: [moderator.userID: 50])
    for person in people { try await person.join(room) }
    try await bot.waitUntilJoined(room)
    var names = [
      owner.userID: "owner", moderator.userID: "moderator", plain.userID: "plain", world.botAccount.userID: "bot",
    ]
    if let configuredAdmin { names[configuredAdmin.userID] = "admin" }
    return MatrixAcceptanceRoom(
      world: world, bot: bot, id: room, owner: owner, moderator: moderator, plain: plain, admin: configuredAdmin,
      names: names)
  }

  /// `person` types `command`; returns the bot's answers to it (replies to that event), once the first has arrived
  /// and nothing for this room is left in the bot's outbox (a long answer may take several events).
  @discardableResult
  func ask(_ person: MatrixHuman, _ command: String, timeout: Duration = .seconds(30)) async throws -> [MatrixEvent] {
    let sent = try await person.say(command, in: id)
    let first = try await person.waitForMessages(in: id, timeout: timeout) { events in
      events.contains { $0.replyTo == sent }
    }
    var answers = first.filter { $0.replyTo == sent }
    if !answers.isEmpty {
      // The answer is one outbox row, however many events it takes: once no row for this room is pending, the
      // homeserver has all of them. (A wait cut short leaves the answer as it is; the caller's checks say the rest.)
      let room = id
      try? await waitUntil("the answer to “\(command)” sent in full", timeout: timeout, every: .milliseconds(50)) {
        try await bot.outbox().allSatisfy { $0.room != room || $0.state != .pending }
      }
      answers = try await person.messages(in: id).filter { $0.replyTo == sent }
    }
    if answers.isEmpty { Issue.record("no answer to “\(command)” within \(timeout)") }
    return answers
  }

  /// A transcript line ("moderator: !watch 3600005"): that person types the command (links under `forumHost`
  /// typed as links to the emulator).
  @discardableResult
  func ask(_ line: String) async throws -> [MatrixEvent] {
    let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
    let typist = try #require(person(named: parts[0]), "nobody called \(parts[0]) in the room")
    return try await ask(typist, emulatorLink(parts[1]))
  }

  func person(named name: String) -> MatrixHuman? {
    switch name {
    case "owner": owner
    case "moderator": moderator
    case "plain": plain
    case "admin": admin
    default: nil
    }
  }

  /// Every message in the room so far, oldest first.
  func messages() async throws -> [MatrixEvent] {
    try await owner.messages(in: id)
  }

  /// The bot's messages that answer nothing and edit nothing: relays, as first sent.
  func relays() async throws -> [MatrixEvent] {
    try await messages().filter { isRelay($0) }
  }

  /// Waits until the bot has relayed at least `count` messages here and edited at least `edits` of them (a relay
  /// whose picture is not shown is edited to say why: its pictures follow it); returns the relays as a person reads
  /// them, each with its latest edit applied.
  func waitForRelays(_ count: Int, edits: Int = 0, timeout: Duration = .seconds(60)) async throws -> [MatrixEvent] {
    let bot = world.botAccount.userID
    let events = try await owner.waitForMessages(in: id, timeout: timeout) { events in
      events.count { isRelay($0) } >= count
        && Set(events.filter { $0.sender == bot }.compactMap(\.replaces)).count >= edits
    }
    var latest: [String: JSONValue] = [:]
    for event in events where event.sender == bot {
      if let target = event.replaces, let content = event.content["m.new_content"] { latest[target] = content }
    }
    return events.filter { isRelay($0) }.map { relay in
      var read = relay
      if let content = relay.eventID.flatMap({ latest[$0] }) { read.content = content }
      return read
    }
  }

  private func isRelay(_ event: MatrixEvent) -> Bool {
    event.sender == world.botAccount.userID && event.replyTo == nil && event.replaces == nil
  }

  /// "who: body" for each message, links to the emulator shown under `forumHost`.
  func transcript(_ events: [MatrixEvent]) -> [String] {
    events.map { event in
      "\(names[event.sender ?? ""] ?? event.sender ?? "?"): \(readable(event.body ?? "(no body)"))"
    }
  }

  /// `text` with the emulator's address replaced by `forumHost`, and times of the test run itself ("2026-03-04
  /// 10:21 UTC", within a day of now; the forum's own dates are from 2024) as `<now>`.
  func readable(_ text: String) -> String {
    text.replacingOccurrences(of: emulatorRoot, with: Self.forumHost)
      .replacing(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? UTC/) { match in
        let format = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        let day = String(match.output.0.prefix(10))
        let now = Date()
        let recent = [now, now.addingTimeInterval(-86_400), now.addingTimeInterval(86_400)].map {
          $0.formatted(format)
        }
        return recent.contains(day) ? "<now>" : String(match.output.0)
      }
  }

  /// A readable link back to the emulator (to follow it).
  func emulatorLink(_ readableLink: String) -> String {
    readableLink.replacingOccurrences(of: Self.forumHost, with: emulatorRoot)
  }

  private var emulatorRoot: String {
    let base = world.forumURL.absoluteString
    return base.hasSuffix("/") ? String(base.dropLast()) : base
  }
}

extension MatrixEvent {
  /// Every `href` in the HTML, in order.
  var htmlLinks: [String] {
    guard let html = formattedBody else { return [] }
    var links: [String] = []
    var rest = Substring(html)
    while let start = rest.range(of: "href=\"") {
      let tail = rest[start.upperBound...]
      guard let end = tail.firstIndex(of: "\"") else { break }
      links.append(String(tail[..<end]).replacingOccurrences(of: "&amp;", with: "&"))
      rest = tail[end...]
    }
    return links
  }
}
