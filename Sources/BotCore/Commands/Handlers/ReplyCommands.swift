import ChatBridge
import ForumModel
import Foundation

/// Posting to the forum as the bot account: `reply` (and `pmreply`) shows a preview, `confirm` (same user, same
/// room, within two minutes) posts it, `cancel` drops it. An account on probation cannot post: both are refused
/// with that reason, at the preview when the forum already showed the probation, else when the forum refuses.
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
    var threadArgument = ""
    let text = try replyText(input, after: &threadArgument)
    let threadID = try await context.threadID(from: threadArgument)
    let page = try await context.forum.threadPage(threadID: threadID, page: .last)
    if let probation = await context.forum.probation {
      throw ProbationText.refusal(probation, dates: context.composer.dates)
    }
    if page.isClosed { throw CommandError.failed("“\(page.threadTitle)” is closed; it takes no replies.") }
    _ = await context.pendingReplies.hold(
      key(context), target: .thread(id: threadID, title: page.threadTitle), text: text, now: context.now)
    var reply = CommandReply()
    reply.add(
      .text("Reply to "), .link(label: "“\(page.threadTitle)”", url: context.links.thread(threadID)),
      .text(" as the bot account:"))
    addPreview(of: text, confirming: "post it", to: &reply, context)
    return reply
  }

  /// The text as "> " lines (at most ten) and how to confirm or cancel.
  static func addPreview(
    of text: String, confirming action: String, to reply: inout CommandReply, _ context: CommandContext
  ) {
    let minutes = Int(context.pendingReplies.lifetime / 60)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(10).map(String.init)
    if text.split(separator: "\n").count > 10 { lines.append("…") }
    reply.lines.append(.quote(lines))
    reply.add(
      .text("Say "), .code("\(context.prefix)confirm"), .text(" within \(minutes) minutes to \(action), or "),
      .code("\(context.prefix)cancel"), .text("."))
  }

  /// The reply text of `reply` and `pmreply`: what follows the first argument, control characters removed, checked.
  static func replyText(_ input: CommandInput, after first: inout String) throws -> String {
    let raw = Substring(input.rawArguments)
    let end = raw.firstIndex(where: \.isWhitespace) ?? raw.endIndex
    first = String(raw[..<end])
    var text = raw[end...].trimmingCharacters(in: .whitespacesAndNewlines)
    // A reply written entirely in one pair of quotes means the quoted text.
    if input.syntaxError == nil, input.arguments.count == 2 { text = input.arguments[1].value }
    text = ChatText.stripControls(text)
    guard !first.isEmpty else { throw CommandError.usage(nil) }
    guard !text.isEmpty else { throw CommandError.usage("The reply text is empty.") }
    guard text.count <= maximumLength else {
      throw CommandError.failed("The reply is too long (\(text.count) characters; at most \(maximumLength)).")
    }
    return text
  }

  static func runConfirm(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    switch await context.pendingReplies.take(key(context), now: context.now) {
    case .none:
      return CommandReply("Nothing to confirm: start with \(context.prefix)reply <thread> <text>.")
    case .expired(let pending):
      let command = if case .privateMessage = pending.target { "pmreply" } else { "reply" }
      return CommandReply("That preview expired; send \(context.prefix)\(command) again.")
    case .ready(let pending):
      do {
        return try await send(pending, context)
      } catch let error as CommandError {
        throw error
      } catch {
        // The forum refused because of a probation the bot had not seen yet: say that, not the forum's page.
        if let probation = await context.forum.probation {
          throw ProbationText.refusal(probation, dates: context.composer.dates)
        }
        throw error
      }
    }
  }

  private static func send(_ pending: PendingReplies.Reply, _ context: CommandContext) async throws -> CommandReply {
    var reply = CommandReply()
    switch pending.target {
    case .thread(let threadID, let title):
      let result = try await context.forum.reply(threadID: threadID, text: pending.text)
      let link: String
      switch result {
      case .post(let id): link = context.links.post(id: id)
      case .lastPostInThread: link = context.links.lastPost(inThread: threadID)
      }
      reply.add(.text("Posted to "), .link(label: "“\(title)”", url: link), .text("."))
    case .privateMessage(let id, let subject, let sender):
      try await context.forum.replyToPrivateMessage(id: id, text: pending.text)
      reply.add(
        .text("Sent\(sender.map { " to \($0)" } ?? "") as a reply to "),
        .link(label: "“\(subject)”", url: context.links.privateMessage(id: id)), .text("."))
    }
    return reply
  }

  static func runCancel(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard let dropped = await context.pendingReplies.cancel(key(context)) else {
      return CommandReply("There is no reply waiting for confirmation.")
    }
    if case .privateMessage = dropped.target { return CommandReply("Dropped the reply; nothing was sent.") }
    return CommandReply("Dropped the reply; nothing was posted.")
  }
}
