import ChatBridge
import ForumModel
import Foundation

enum BrowseCommands {
  static let forums = CommandSpec(
    name: "forums", usage: "[search]", summary: "List the forums (those whose name contains the search).",
    role: .viewer, run: runForums)

  static let threads = CommandSpec(
    name: "threads", usage: "<forum> [page]", summary: "List a page of a forum's threads.", role: .viewer,
    run: runThreads)

  static let latest = CommandSpec(
    name: "latest", usage: "<thread> [n]", summary: "Show the last n posts of a thread (default 3, at most 10).",
    role: .viewer, run: runLatest)

  /// Longest forum list shown before asking for a narrower search.
  static let maximumForums = 25
  static let latestExcerptLength = 160

  static func runForums(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let search = input.rest(from: 0).trimmingCharacters(in: .whitespaces)
    let directory = ForumDirectory(index: try await context.forum.forumIndex())
    let found = directory.search(search.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”")))
    guard !found.isEmpty else { return CommandReply("No forum matches “\(search)”.") }
    var reply = CommandReply()
    reply.add(search.isEmpty ? "Forums (\(found.count)):" : "Forums matching “\(search)” (\(found.count)):")
    for node in found.prefix(maximumForums) {
      reply.add(item: [.link(label: node.title, url: context.links.forum(node.id)), .text(" (\(node.id))")])
    }
    if found.count > maximumForums {
      reply.add("…and \(found.count - maximumForums) more; \(context.prefix)forums <search> narrows the list.")
    }
    return reply
  }

  static func runThreads(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    var values = input.values
    guard !values.isEmpty else { throw CommandError.usage(nil) }
    var page = 1
    if values.count > 1, let last = values.last, let number = Int(last) {
      guard number >= 1 else { throw CommandError.usage("Pages start at 1.") }
      page = number
      values.removeLast()
    }
    let node = try await context.forumNode(from: values.joined(separator: " "))
    let listing = try await context.forum.threads(forumID: node.id, page: page)
    let total = listing.page?.total ?? 1
    if page > total {
      throw CommandError.failed("\(node.title) has \(NameList.count(total, "page")); there is no page \(page).")
    }
    let pageText = listing.page.map { "page \($0.current) of \($0.total)" } ?? "page \(page)"
    guard !listing.threads.isEmpty else { return CommandReply("No threads on \(pageText) of \(node.title).") }
    var reply = CommandReply()
    reply.add("\(node.title), \(pageText):")
    for thread in listing.threads {
      reply.add(item: ThreadLine.parts(thread, context: context))
    }
    return reply
  }

  static func runLatest(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let values = input.values
    guard (1...2).contains(values.count) else { throw CommandError.usage(nil) }
    var count = 3
    if values.count == 2 {
      guard let number = Int(values[1]), (1...10).contains(number) else {
        throw CommandError.usage("The number of posts must be from 1 to 10.")
      }
      count = number
    }
    let threadID = try await context.threadID(from: values[0])
    var page = try await context.forum.threadPage(threadID: threadID, page: .last)
    var posts = page.posts
    // The last page may hold fewer posts than asked for: take the rest from the page before.
    if posts.count < count, let current = page.page?.current, current > 1 {
      let previous = try await context.forum.threadPage(threadID: threadID, page: .number(current - 1))
      posts = previous.posts + posts
      page.threadTitle = page.threadTitle.isEmpty ? previous.threadTitle : page.threadTitle
    }
    let shown = posts.suffix(count)
    guard !shown.isEmpty else { return CommandReply("“\(page.threadTitle)” has no posts to show.") }
    var reply = CommandReply()
    reply.add(
      .link(label: "“\(page.threadTitle)”", url: context.links.thread(threadID)),
      .text(" — last \(NameList.count(shown.count, "post")):"))
    for post in shown {
      reply.lines.append(
        .post(
          context.composer.post(
            post, threadID: threadID, threadTitle: page.threadTitle, excerptLength: latestExcerptLength)))
    }
    return reply
  }
}
