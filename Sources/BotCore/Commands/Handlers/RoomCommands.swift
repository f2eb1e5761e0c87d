import ChatBridge
import Foundation

enum RoomCommands {
  static let quiet = CommandSpec(
    name: "quiet", usage: "<HH:MM-HH:MM> | off | for <duration>",
    summary: "Hold relays during daily quiet hours or for a while; held posts arrive as one digest after.",
    role: .member, run: runQuiet)

  static let mode = CommandSpec(
    name: "mode", usage: "each | summary [K] | digest hourly | digest daily HH:MM",
    summary: "Relay every post, summarise busy threads, or send digests.", role: .member, run: runMode)

  static let unfurl = CommandSpec(
    name: "unfurl", usage: "on | off", summary: "Answer forum links pasted here with their title and author.",
    role: .admin, run: runUnfurl)

  static let pictures = CommandSpec(
    name: "pictures", usage: "inline | links",
    summary: "Show the pictures of relayed posts here (inline, the default) or keep them as links.", role: .member,
    run: runPictures)

  static let editNotices = CommandSpec(
    name: "editnotices", usage: "on | off",
    summary: "Say in one line when a relayed post is edited on the forum, where the bot cannot edit its message.",
    role: .member, run: runEditNotices)

  static let pause = CommandSpec(
    name: "pause", usage: "",
    summary: "Hold every relay to this room until it is resumed (then one digest of what came).",
    role: .member, run: { input, context in try await setPaused(true, input, context) })

  static let resume = CommandSpec(
    name: "resume", usage: "",
    summary: "Relay again after a pause (or after the bot was kicked and invited back); held posts come as one digest.",
    role: .member, run: { input, context in try await setPaused(false, input, context) })

  static func setPaused(_ paused: Bool, _ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.isEmpty else { throw CommandError.usage(nil) }
    let change = try await context.changeRoomSettings(paused ? "paused the room" : "resumed the room") {
      $0.isPaused = paused
    }
    guard change.before.isPaused != paused else {
      return CommandReply(paused ? "This room is already paused." : "This room is not paused.")
    }
    return CommandReply(
      paused
        ? "Paused: new posts are held for this room until \(context.prefix)resume."
        : "Resumed: posts held while paused arrive as one digest; new posts are relayed as before.")
  }

  static func runQuiet(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let values = input.values
    guard let first = values.first?.lowercased() else {
      let settings = try await context.roomSettings.settings(room: context.room)
      let quiet = QuietText.parts(settings, now: context.now, dates: context.composer.dates)
      return CommandReply(lines: [.sentence([.text("Quiet: ")] + quiet + [.text(".")])])
    }
    let quiet: QuietHours?
    let answer: [CommandAnswer.Part]
    switch first {
    case "off":
      guard values.count == 1 else { throw CommandError.usage(nil) }
      quiet = nil
      answer = [.text("Quiet hours are off; held posts will be sent now.")]
    case "for":
      guard values.count >= 2, let interval = DurationText.parse(values.dropFirst().joined()) else {
        throw CommandError.usage("Give a duration such as 30m, 2h or 1h30m.")
      }
      guard interval <= 7 * 86_400 else { throw CommandError.usage("At most 7 days.") }
      let until = context.now.addingTimeInterval(interval)
      quiet = .until(until)
      answer = [
        .text("Quiet for \(DurationText.format(interval)) (until "), context.composer.dates.part(until), .text(")."),
      ]
    default:
      guard values.count == 1, let hours = QuietHours(parsingDaily: first) else {
        throw CommandError.usage("Quiet hours look like 23:00-07:30.")
      }
      quiet = hours
      answer = [.text("Quiet hours set: \(hours) (\(context.composer.dates.zoneName)).")]
    }
    try await context.changeRoomSettings("changed quiet hours") { $0.setQuiet(quiet) }
    return CommandReply(lines: [.sentence(answer)])
  }

  static func runMode(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let values = input.values.map { $0.lowercased() }
    guard !values.isEmpty else {
      let settings = try await context.roomSettings.settings(room: context.room)
      return CommandReply("Mode: \(settings.mode).")
    }
    let mode: RelayMode
    switch RelayMode.parse(values) {
    case .success(let parsed): mode = parsed
    case .failure(.unknown): throw CommandError.usage(nil)
    case .failure(let error): throw CommandError.usage(error.description)
    }
    try await context.changeRoomSettings("set the mode to \(mode)") { $0.mode = mode }
    return CommandReply("Mode set: \(mode).")
  }

  static func runPictures(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.count == 1, let display = PictureDisplay(rawValue: input.values[0].lowercased()) else {
      throw CommandError.usage(nil)
    }
    guard context.capabilities.pictures else {
      throw CommandError.failed("Pictures reach this room as links anyway: the bot shows none on this chat service.")
    }
    try await context.changeRoomSettings("set pictures to \(display.rawValue)") { $0.pictures = display }
    return CommandReply(
      display == .inline
        ? "Pictures in relayed posts are shown here."
        : "Pictures in relayed posts stay links here; nothing is downloaded for this room.")
  }

  static func runEditNotices(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let enabled = try input.switchValue()
    guard !context.capabilities.edits else {
      throw CommandError.failed(
        "Edits on the forum change the relay itself here: the bot edits its messages on this chat service.")
    }
    try await context.changeRoomSettings("turned edit notices \(enabled ? "on" : "off")") { $0.editNotices = enabled }
    return CommandReply(
      enabled
        ? "When a post relayed here is edited on the forum, one line will say so."
        : "Edits on the forum will no longer be told here.")
  }

  static func runUnfurl(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let enabled = try input.switchValue()
    try await context.changeRoomSettings("turned unfurling \(enabled ? "on" : "off")") { $0.unfurl = enabled }
    return CommandReply(
      enabled ? "Forum links pasted here will be unfurled." : "Forum links will no longer be unfurled.")
  }
}

/// A room's quiet settings in words: "daily 23:00–07:30, until 2025-01-02 15:04 UTC", or "off".
enum QuietText {
  static func parts(_ settings: RoomSettings, now: Date, dates: DateText) -> [CommandAnswer.Part] {
    var parts: [CommandAnswer.Part] = []
    if let hours = settings.quietHours { parts.append(.text("\(hours)")) }
    if let until = settings.quietUntil, until > now {
      parts += [.text(parts.isEmpty ? "until " : ", until "), dates.part(until)]
    }
    return parts.isEmpty ? [.text("off")] : parts
  }
}
