import ChatBridge
import ForumModel
import Foundation

enum BookmarkCommands {
  static let list = CommandSpec(
    name: "bookmarks", usage: "[page] [unread|recent]",
    summary: "List the bot account's bookmarks (only unread ones, or most recent first).", role: .viewer, run: runList)

  static let add = CommandSpec(
    name: "bookmark", usage: "<thread> [colour]",
    summary: "Bookmark a thread on the forum (colours: \(StarColor.allCases.map(\.name).joined(separator: ", "))).",
    role: .member, scope: .account, run: runAdd)

  static let remove = CommandSpec(
    name: "unbookmark", usage: "<thread>", summary: "Remove a thread from the bookmarks.", role: .member,
    scope: .account, run: runRemove)

  static let undo = CommandSpec(
    name: "undo", summary: "Revert your last change in this room (within 10 minutes).", role: .member,
    run: runUndo)

  private enum Filter: String {
    case unread, recent
  }

  static func runList(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    var page = 1
    var filter: Filter?
    for value in input.values {
      if let number = Int(value), number >= 1 {
        page = number
      } else if let parsed = Filter(rawValue: value.lowercased()) {
        filter = parsed
      } else {
        throw CommandError.usage("“\(value)” is neither a page number nor unread/recent.")
      }
    }
    let listing = try await context.forum.bookmarks(page: page)
    // The forum answers a page past the end with its last page: say so instead of showing that page as asked for.
    // No page navigation at all: everything fits on one page.
    let total = listing.page?.total ?? 1
    if page > total {
      throw CommandError.failed("The bookmarks have \(NameList.count(total, "page")); there is no page \(page).")
    }
    var threads = listing.threads
    switch filter {
    case .unread: threads = threads.filter { ($0.unreadCount ?? 0) > 0 }
    case .recent: threads.sort { ($0.lastPostDate ?? .distantPast) > ($1.lastPostDate ?? .distantPast) }
    case nil: break
    }
    let pageText = listing.page.map { "page \($0.current) of \($0.total)" } ?? "page \(page)"
    guard !threads.isEmpty else {
      return CommandReply(filter == .unread ? "No unread bookmarks on \(pageText)." : "No bookmarks on \(pageText).")
    }
    var reply = CommandReply()
    reply.add("Bookmarks, \(pageText)\(filter.map { " (\($0.rawValue))" } ?? ""):")
    for thread in threads {
      reply.add(item: ThreadLine.parts(thread, context: context))
    }
    if let shown = listing.page, shown.current < shown.total {
      let filterWord = filter.map { " \($0.rawValue)" } ?? ""
      reply.add("\(context.prefix)bookmarks \(shown.current + 1)\(filterWord) shows the next page.")
    }
    return reply
  }

  static func runAdd(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let values = input.values
    guard (1...2).contains(values.count) else { throw CommandError.usage(nil) }
    var star: StarColor?
    if values.count == 2 {
      guard let colour = StarColor(name: values[1]) else {
        throw CommandError.usage(
          "Unknown colour “\(values[1])”; use one of \(StarColor.allCases.map(\.name).joined(separator: ", ")).")
      }
      star = colour
    }
    let threadID = try await context.threadID(from: values[0])
    // Reading the thread first checks it exists and gives its title and whether it is bookmarked already.
    let page = try await context.forum.threadPage(threadID: threadID, page: .number(1))
    let previous = try await context.bookmarks.bookmark(threadID: threadID, star: star)
    let wasBookmarked = page.isBookmarked ?? previous.wasBookmarked
    let title = "“\(page.threadTitle)”"
    let colour = star.map { " (\($0.name))" } ?? ""
    var undo: [UndoAction] = []
    if !wasBookmarked {
      undo = [.removeBookmark(threadID: threadID)]
    } else if star != nil, previous.previousStar != star {
      undo = [.addBookmark(threadID: threadID, star: previous.previousStar)]
    }
    if !undo.isEmpty {
      try await context.undo.record(
        room: context.room, userID: context.userID, summary: "bookmarked \(title)\(colour)", actions: undo)
    }
    var reply = CommandReply()
    let link = CommandReply.Part.link(label: title, url: context.links.thread(threadID))
    switch (wasBookmarked, star) {
    case (false, _): reply.add(.text("Bookmarked "), link, .text("\(colour). \(context.prefix)undo reverts it."))
    case (true, nil): reply.add(link, .text(" was already bookmarked."))
    case (true, .some): reply.add(link, .text(" is now starred\(colour)."))
    }
    return reply
  }

  static func runRemove(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.count == 1 else { throw CommandError.usage(nil) }
    let threadID = try await context.threadID(from: input.values[0])
    let page = try await context.forum.threadPage(threadID: threadID, page: .number(1))
    if page.isBookmarked == false {
      return CommandReply("“\(page.threadTitle)” is not bookmarked.")
    }
    // A watch finds new posts through the bookmark: removing it would silence the watch without a word.
    let watchers = try await context.subscriptions.roomsWatching(threadID: threadID)
    if !watchers.isEmpty {
      let here = watchers.contains(context.room)
      let others = watchers.count(where: { $0 != context.room })
      let rooms: String
      switch (here, others) {
      case (true, 0): rooms = "this room watches it"
      case (true, _): rooms = "this room and \(NameList.count(others, "other room")) watch it"
      default: rooms = "\(NameList.count(others, "other room")) \(others == 1 ? "watches" : "watch") it"
      }
      let how =
        here
        ? "\(context.prefix)unwatch \(threadID) here first"
        : "\(context.prefix)unwatch \(threadID) in \(others == 1 ? "that room" : "those rooms") first"
      throw CommandError.failed(
        "“\(page.threadTitle)” stays bookmarked: \(rooms), and a watch needs the bookmark to see new posts. "
          + "Use \(how).")
    }
    let star = try await context.bookmarks.unbookmark(threadID: threadID)
    try await context.undo.record(
      room: context.room, userID: context.userID, summary: "unbookmarked “\(page.threadTitle)”",
      actions: [.addBookmark(threadID: threadID, star: star)])
    return CommandReply("Removed “\(page.threadTitle)” from the bookmarks. \(context.prefix)undo reverts it.")
  }

  static func runUndo(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.isEmpty else { throw CommandError.usage(nil) }
    guard let entry = try await context.undo.take(room: context.room, userID: context.userID) else {
      return CommandReply("Nothing of yours to undo in this room (changes can be undone for 10 minutes).")
    }
    // Undoing a bookmark change acts on the forum account again: the role for it is checked now, not only when the
    // change was made (it may have been taken away since).
    let touchesBookmarks = entry.actions.contains {
      switch $0 {
      case .addBookmark, .removeBookmark: true
      default: false
      }
    }
    if touchesBookmarks, context.accountRole < add.role {
      try await context.undo.record(
        room: context.room, userID: context.userID, summary: entry.summary, actions: entry.actions)
      throw CommandError.failed(
        "Undoing “\(entry.summary)” changes the bot's forum account, which needs the \(add.role) role for it; you are "
          + "\(context.accountRole.withArticle) now.")
    }
    try await context.undo.revert(entry)
    return CommandReply("Undone: \(entry.summary).")
  }
}
