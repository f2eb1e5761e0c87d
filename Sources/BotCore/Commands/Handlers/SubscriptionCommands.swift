import ChatBridge
import ForumModel
import Foundation

enum SubscriptionCommands {
  static let subscribe = CommandSpec(
    name: "subscribe", usage: "bookmarks [colour…] | announcements | lepers | forum <forum> [--backfill N]",
    summary:
      "Relay bookmarked threads (optionally by star colour), announcements, a forum's new threads or the Leper's "
      + "Colony here.",
    role: .member, run: runSubscribe)

  static let unsubscribe = CommandSpec(
    name: "unsubscribe", usage: "bookmarks [colour…] | announcements | lepers | forum <forum>",
    summary: "Stop one of those subscriptions.", role: .member, run: runUnsubscribe)

  static let list = CommandSpec(
    name: "subscriptions", summary: "What this room follows.", role: .viewer, run: runList)

  static let maximumBackfill = 20

  /// `--backfill N`, bounded.
  static func backfill(_ arguments: ArgumentScanner, maximum: Int) throws -> Int {
    guard let text = arguments.options["backfill"]?.last else { return 0 }
    guard let count = Int(text), (0...maximum).contains(count) else {
      throw CommandError.usage("--backfill takes a number from 0 to \(maximum).")
    }
    return count
  }

  /// The target and how to name it in a reply.
  static func target(_ values: [String], _ context: CommandContext) async throws -> (SubscriptionTarget, String) {
    guard let kind = values.first?.lowercased() else { throw CommandError.usage(nil) }
    let rest = Array(values.dropFirst())
    switch kind {
    case "bookmarks", "bookmark":
      var colours: [StarColor] = []
      for name in rest {
        guard let colour = StarColor(name: name) else {
          throw CommandError.usage(
            "Unknown colour “\(name)”; use \(StarColor.allCases.map(\.name).joined(separator: ", ")).")
        }
        if !colours.contains(colour) { colours.append(colour) }
      }
      let target: SubscriptionTarget = colours.isEmpty ? .bookmarks : .stars(colours)
      return (target, target.description)
    case "announcements", "announcement":
      guard rest.isEmpty else { throw CommandError.usage(nil) }
      return (.announcements, "announcements")
    case "lepers", "leper", "banlist":
      guard rest.isEmpty else { throw CommandError.usage(nil) }
      return (.lepers, "the Leper's Colony")
    case "forum":
      guard !rest.isEmpty else { throw CommandError.usage("Name the forum (an id or part of its name).") }
      let node = try await context.forumNode(from: rest.joined(separator: " "))
      return (.forum(id: node.id), "new threads in \(node.title)")
    default:
      throw CommandError.usage("“\(kind)” is not something to subscribe to.")
    }
  }

  static func runSubscribe(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let arguments = try ArgumentScanner(input.values, flags: [], valueOptions: ["backfill"])
    let backfill = try backfill(arguments, maximum: maximumBackfill)
    let (target, name) = try await target(arguments.positional, context)
    let result = try await context.subscriptions.subscribe(
      room: context.room, to: target, filters: .none, backfill: backfill, createdBy: context.userID)
    guard result.isNew else {
      // The backfill came with the subscription: asking again reads nothing on the forum and sends nothing.
      let again = backfill > 0 ? " --backfill sends posts only with a new subscription, so nothing was sent again." : ""
      return CommandReply("This room was already subscribed to \(name).\(again)")
    }
    try await context.undo.record(
      room: context.room, userID: context.userID, summary: "subscribed to \(name)",
      actions: [.deleteSubscription(id: result.subscription.id)])
    var reply = CommandReply("Subscribed this room to \(name).")
    if result.backfilled > 0 { reply.add("Sending the latest \(result.backfilled) now.") }
    if let failure = result.backfillFailure { reply.add("Nothing from before was sent: \(failure)") }
    return reply
  }

  static func runUnsubscribe(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let (target, name) = try await target(input.values, context)
    guard let removed = try await context.subscriptions.unsubscribe(room: context.room, from: target) else {
      return CommandReply("This room is not subscribed to \(name).")
    }
    try await context.undo.record(
      room: context.room, userID: context.userID, summary: "unsubscribed from \(name)",
      actions: [.restoreSubscription(target: removed.target, filters: removed.filters)])
    return CommandReply("Unsubscribed this room from \(name).")
  }

  static func runList(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let subscriptions = try await context.subscriptions.subscriptions(room: context.room)
    guard !subscriptions.isEmpty else {
      return CommandReply(
        "This room follows nothing yet; try \(context.prefix)subscribe bookmarks or \(context.prefix)watch <thread>.")
    }
    var reply = CommandReply()
    reply.add("This room follows:")
    for subscription in subscriptions {
      if case .thread(let id) = subscription.target {
        let filters = subscription.filters.isEmpty ? "" : " (\(subscription.filters.summary))"
        reply.add(item: [.link(label: "thread \(id)", url: context.links.thread(id)), .text(filters)])
      } else {
        reply.add(item: [.text(subscription.description)])
      }
    }
    return reply
  }
}
