import ChatBridge
import ForumModel
import Foundation

enum WatchCommands {
  static let watch = CommandSpec(
    name: "watch", usage: "<thread> [--op-only] [--author X] [--not-author X] [--keyword K] [--backfill N]",
    summary: "Relay a thread's new posts here (also bookmarks it on the forum).", role: .member, run: runWatch)

  static let unwatch = CommandSpec(
    name: "unwatch", usage: "<thread>", summary: "Stop relaying a thread here.", role: .member, run: runUnwatch)

  /// Most posts `--backfill` may replay, so one command cannot flood a room.
  static let maximumBackfill = 20

  static func runWatch(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let arguments = try ArgumentScanner(
      input.values, flags: ["op-only", "op"], valueOptions: ["author", "keyword", "not-author", "backfill"])
    guard arguments.positional.count == 1 else { throw CommandError.usage(nil) }
    let filters = SubscriptionFilters(
      includeAuthors: arguments.options["author"] ?? [], excludeAuthors: arguments.options["not-author"] ?? [],
      keywords: arguments.options["keyword"] ?? [],
      opOnly: arguments.flags.contains("op-only") || arguments.flags.contains("op"))
    let backfill = try SubscriptionCommands.backfill(arguments, maximum: maximumBackfill)
    let threadID = try await context.threadID(from: arguments.positional[0])
    let target = SubscriptionTarget.thread(id: threadID)
    let before = try await context.subscriptions.subscriptions(room: context.room).first { $0.target == target }
    let result = try await context.subscriptions.watch(
      threadID: threadID, room: context.room, filters: filters, backfill: backfill, createdBy: context.userID,
      mayAddBookmark: context.accountRole >= BookmarkCommands.add.role)
    let name = result.title.map { "“\($0)”" } ?? "thread \(threadID)"
    try await context.undo.record(
      room: context.room, userID: context.userID, summary: "watched \(name)",
      actions: before.map { [.restoreSubscription(target: target, filters: $0.filters)] }
        ?? [.deleteSubscription(id: result.subscription.id)])
    let filterText = filters.isEmpty ? "" : " (\(filters.summary))"
    var reply = CommandReply()
    reply.add(
      .text(result.isNew ? "Watching " : "Updated the filters of "),
      .link(label: name, url: context.links.thread(threadID)),
      .text(filterText + (result.isNew ? ": new posts will appear here." : ".")))
    if result.addedBookmark { reply.add("The thread was bookmarked on the forum so the bot sees new posts.") }
    if result.backfilled > 0 { reply.add("Sending the last \(NameList.count(result.backfilled, "post")).") }
    if let failure = result.backfillFailure { reply.add("Nothing from before was sent: \(failure)") }
    if !result.isNew, backfill > 0 {
      reply.add("--backfill sends posts only when a room starts watching, so nothing was sent again.")
    }
    return reply
  }

  static func runUnwatch(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.count == 1 else { throw CommandError.usage(nil) }
    let threadID = try await context.threadID(from: input.values[0])
    guard let result = try await context.subscriptions.unwatch(threadID: threadID, room: context.room) else {
      return CommandReply("This room is not watching thread \(threadID).")
    }
    try await context.undo.record(
      room: context.room, userID: context.userID, summary: "unwatched thread \(threadID)",
      actions: [.restoreSubscription(target: result.removed.target, filters: result.removed.filters)])
    let bookmark = result.removedBookmark ? " and removed the bookmark the bot had added" : ""
    return CommandReply("Stopped watching thread \(threadID) here\(bookmark).")
  }
}
