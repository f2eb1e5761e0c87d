import ChatBridge
import ForumModel
import Foundation

/// Posting to the forum as the bot account: `reply` shows a preview, `confirm` (same user, same room, within two
/// minutes) posts it, `cancel` drops it.
enum ReplyCommands {
  static let reply = CommandSpec(
    name: "reply", usage: "<thread> <text>",
    summary: "Post a reply as the bot account (shows a preview to confirm).", role: .admin, takesRawText: true,
    run: runReply)

  static let confirm = CommandSpec(
    name: "confirm", summary: "Post the reply you previewed (within 2 minutes).", role: .admin, run: runConfirm)

  static let cancel = CommandSpec(
    name: "cancel", summary: "Drop the reply you previewed.", role: .admin, run: runCancel)

  /// The forum refuses longer posts; refuse them here with a clear message instead.
  static let maximumLength = 50_000

  static func key(_ context: CommandContext) -> PendingReplies.Key {
    .init(transport: context.message.transport, room: context.message.room, senderID: context.message.senderID)
  }

  static func runReply(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let raw = Substring(input.rawArguments)
    let threadEnd = raw.firstIndex(where: \.isWhitespace) ?? raw.endIndex
    let threadArgument = String(raw[..<threadEnd])
    var text = raw[threadEnd...].trimmingCharacters(in: .whitespacesAndNewlines)
    // A reply written entirely in one pair of quotes means the quoted text.
    if input.syntaxError == nil, input.arguments.count == 2 { text = input.arguments[1].value }
    text = ChatText.stripControls(text)
    guard !threadArgument.isEmpty else { throw CommandError.usage(nil) }
    guard !text.isEmpty else { throw CommandError.usage("The reply text is empty.") }
    guard text.count <= maximumLength else {
      throw CommandError.failed("The reply is too long (\(text.count) characters; at most \(maximumLength)).")
    }
    let threadID = try await context.threadID(from: threadArgument)
    let page = try await context.forum.threadPage(threadID: threadID, page: .last)
    if page.isClosed { throw CommandError.failed("“\(page.threadTitle)” is closed; it takes no replies.") }
    let pending = await context.pendingReplies.hold(
      key(context), threadID: threadID, threadTitle: page.threadTitle, text: text, now: context.now)
    let minutes = Int(context.pendingReplies.lifetime / 60)
    var reply = CommandReply()
    reply.add(
      .text("Reply to "), .link(label: "“\(pending.threadTitle)”", url: context.links.thread(threadID)),
      .text(" as the bot account:"))
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(10) {
      reply.add("> \(line)")
    }
    if text.split(separator: "\n").count > 10 { reply.add("> …") }
    reply.add(
      .text("Say "), .code("\(context.prefix)confirm"), .text(" within \(minutes) minutes to post it, or "),
      .code("\(context.prefix)cancel"), .text("."))
    return reply
  }

  static func runConfirm(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    switch await context.pendingReplies.take(key(context), now: context.now) {
    case .none:
      return CommandReply("Nothing to confirm: start with \(context.prefix)reply <thread> <text>.")
    case .expired:
      return CommandReply("That preview expired; send \(context.prefix)reply again.")
    case .ready(let pending):
      let result = try await context.forum.reply(threadID: pending.threadID, text: pending.text)
      let link: String
      switch result {
      case .post(let id): link = context.links.post(id: id)
      case .lastPostInThread: link = context.links.lastPost(inThread: pending.threadID)
      }
      var reply = CommandReply()
      reply.add(.text("Posted to "), .link(label: "“\(pending.threadTitle)”", url: link), .text("."))
      return reply
    }
  }

  static func runCancel(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard await context.pendingReplies.cancel(key(context)) != nil else {
      return CommandReply("There is no reply waiting for confirmation.")
    }
    return CommandReply("Dropped the reply; nothing was posted.")
  }
}
