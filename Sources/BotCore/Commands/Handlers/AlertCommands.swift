import ChatBridge
import Foundation

/// Alerts tell the room when a forum user is quoted or mentioned. Anyone with `member` may set one on their own
/// forum name, as the config gives it (`roles[].forumName`: never the chat display name or nick, which anyone can
/// choose); alerts on other people need `admin`, so a room cannot be used to track someone without an admin agreeing.
enum AlertCommands {
  static let alert = CommandSpec(
    name: "alert", usage: "<forum user>", summary: "Say here when a forum user is quoted or mentioned.",
    role: .member, run: runAlert)

  static let unalert = CommandSpec(
    name: "unalert", usage: "<forum user>", summary: "Stop an alert.", role: .member, run: runUnalert)

  static let list = CommandSpec(name: "alerts", summary: "List this room's alerts.", role: .viewer, run: runList)

  static func username(_ input: CommandInput, _ context: CommandContext) throws -> String {
    let name = (input.arguments.count == 1 ? input.values[0] : input.rest(from: 0))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, name.count <= 64 else { throw CommandError.usage(nil) }
    let isSelf = context.forumName.map { name.caseInsensitiveCompare($0) == .orderedSame } ?? false
    if !isSelf && context.role < .admin {
      guard let own = context.forumName else {
        throw CommandError.failed(
          "Alerts need the admin role; you could set one on your own forum name if the config gave it "
            + "(roles[].forumName).")
      }
      throw CommandError.failed("Alerts on someone else need the admin role; you may set one on your own name, \(own).")
    }
    return name
  }

  static func runAlert(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let name = try username(input, context)
    let added = try await context.alerts.addAlert(room: context.room, username: name, createdBy: context.userID)
    if added {
      try await context.undo.record(
        room: context.room, userID: context.userID, summary: "added an alert on \(name)",
        actions: [.removeAlert(username: name)])
    }
    return CommandReply(
      added ? "This room will hear when \(name) is quoted or mentioned." : "This room already has an alert on \(name).")
  }

  static func runUnalert(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let name = try username(input, context)
    let removed = try await context.alerts.removeAlert(room: context.room, username: name)
    if removed {
      try await context.undo.record(
        room: context.room, userID: context.userID, summary: "removed the alert on \(name)",
        actions: [.addAlert(username: name)])
    }
    return CommandReply(removed ? "Stopped the alert on \(name)." : "This room has no alert on \(name).")
  }

  static func runList(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let alerts = try await context.alerts.alerts(room: context.room)
    guard !alerts.isEmpty else { return CommandReply("This room has no alerts.") }
    return CommandReply("Alerts: " + alerts.joined(separator: ", ") + ".")
  }
}
