import ChatBridge
import ForumModel
import Foundation

/// Posting to the forum as the bot account: `reply` (and `pmreply`) shows a preview, `confirm` (same user, same
/// room, within two minutes) posts it, `cancel` drops it. An account on probation cannot post: both are refused
/// with that reason, at the preview when the forum already showed the probation, else when the forum refuses.
enum ReplyCommands {
  static let reply = CommandSpec(
    name: "reply", usage: "<thread> <text>",
    summary: "Post a reply as the bot account (shows a preview to confirm).", role: .admin, scope: .account,
    takesRawText: true, run: runReply)

  // Anyone may confirm or drop their own preview: who may start one is checked when it is started (`reply` is for
  // admins, answering a relay follows the room's `replies` setting) and again at confirm (a role taken away
  // meanwhile stops it), and a preview is only ever its author's.
  static let confirm = CommandSpec(
    name: "confirm", summary: "Post the reply you previewed (within 2 minutes).", role: .viewer, scope: .account,
    run: runConfirm)

  static let cancel = CommandSpec(
    name: "cancel", summary: "Drop the reply you previewed.", role: .viewer, run: runCancel)

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
      key(context), target: .thread(id: threadID, title: page.threadTitle), text: text, now: context.now,
      requestID: context.message.messageID, neededRole: Self.reply.role, requestTrust: context.message.trust)
    var reply = CommandReply()
    reply.add(
      .text("Reply to "), .link(label: "“\(page.threadTitle)”", url: context.links.thread(threadID)),
      .text(" as the bot account:"))
    // Asked for in words, so ✅ may settle it, even in clear (`CommandRouter.handle(_:capabilities:)`).
    addPreview(
      of: text, confirming: "post it", offeringReactions: context.capabilities.reactions, to: &reply, context)
    return reply
  }

  /// The text as "> " lines (at most ten) and how to confirm or cancel: the reactions only where they are offered
  /// and may settle it (`confirmation`).
  static func addPreview(
    of text: String, confirming action: String, offeringReactions: Bool = false,
    confirmation: PendingReplies.Confirmation = .commandOrReaction, to reply: inout CommandReply,
    _ context: CommandContext
  ) {
    let minutes = minutes(context)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(10).map(String.init)
    if text.split(separator: "\n").count > 10 { lines.append("…") }
    reply.lines.append(.quote(lines))
    if confirmation == .command {
      reply.add(
        .text("Send "), .code("\(context.prefix)confirm"), .text(" within \(minutes) minutes to \(action), or "),
        .code("\(context.prefix)cancel"),
        .text(
          ". In an encrypted room the homeserver can turn any line into a reply and forge reactions, so only your "
            + "encrypted "), .code("\(context.prefix)confirm"), .text(" posts it."))
    } else if offeringReactions {
      reply.add(
        .text("Say "), .code("\(context.prefix)confirm"),
        .text(" or react ✅ within \(minutes) minutes to \(action); "), .code("\(context.prefix)cancel"),
        .text(" or ❌ drops it."))
    } else {
      reply.add(
        .text("Say "), .code("\(context.prefix)confirm"), .text(" within \(minutes) minutes to \(action), or "),
        .code("\(context.prefix)cancel"), .text("."))
    }
  }

  /// The reply text of `reply` and `pmreply`: what follows the first argument, control characters removed, checked.
  static func replyText(_ input: CommandInput, after first: inout String) throws -> String {
    let raw = Substring(input.rawArguments)
    let end = raw.firstIndex(where: \.isWhitespace) ?? raw.endIndex
    first = String(raw[..<end])
    var text = String(raw[end...])  // trimmed by checkedText
    // A reply written entirely in one pair of quotes means the quoted text.
    if input.syntaxError == nil, input.arguments.count == 2 { text = input.arguments[1].value }
    guard !first.isEmpty else { throw CommandError.usage(nil) }
    guard let checked = try checkedText(text) else { throw CommandError.usage("The reply text is empty.") }
    return checked
  }

  /// A reply's text as it is posted: control characters out, trimmed; nil when nothing is left, refused when longer
  /// than the forum takes.
  static func checkedText(_ raw: String) throws -> String? {
    let text = ChatText.stripControls(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { return nil }
    guard text.count <= maximumLength else {
      throw CommandError.failed("The reply is too long (\(text.count) characters; at most \(maximumLength)).")
    }
    return text
  }

  static func runConfirm(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    try await confirm(key(context), context)
  }

  /// Posts the reply `key` holds (a `confirm`, or a ✅ on its preview). A refusal by the forum (a flood wait, a
  /// closed thread, a probation) puts the reply back, so its text is not lost and the next confirm tries again.
  static func confirm(_ key: PendingReplies.Key, _ context: CommandContext) async throws -> CommandReply {
    switch await context.pendingReplies.take(key, now: context.now) {
    case .none:
      return CommandReply("Nothing to confirm: start with \(context.prefix)reply <thread> <text>.")
    case .expired(let pending):
      let command = if case .privateMessage = pending.target { "pmreply" } else { "reply" }
      return CommandReply("That preview expired; send \(context.prefix)\(command) again.")
    case .ready(let pending):
      try checkStillAllowed(pending, context)
      do {
        return try await send(pending, context)
      } catch {
        await context.pendingReplies.reopen(key, pending, now: context.now)
        let kept =
          " The text is kept: say \(context.prefix)confirm to try again (within \(minutes(context)) minutes), or "
          + "\(context.prefix)cancel."
        // The forum refused because of a probation the bot had not seen yet: say that, not the forum's page.
        if let probation = await context.forum.probation {
          throw CommandError.failed(
            ProbationText.refusal(probation, dates: context.composer.dates).description + kept)
        }
        // Every forum (the client, its stand-ins) says a refusal the same way, as a `ForumFailure` with a
        // `postingRefusal`; its sentence is what the user reads.
        if let refusal = (error as? any ForumFailure)?.postingRefusal {
          throw CommandError.failed("The forum refused the reply: \(refusal.message)" + kept)
        }
        if let wall = (error as? any ForumFailure)?.wall {
          throw CommandError.failed(wall.commandAnswer + kept)
        }
        if let refusal = error as? any ForumFailure, !refusal.isNotFound {
          throw CommandError.failed("The forum refused the reply: \(refusal.description)" + kept)
        }
        throw CommandError.failed(ErrorText.describe(error) + kept)
      }
    }
  }

  /// The asker's role for the account, and a private message's room, checked again at confirm: a reload or a
  /// change of room power between the preview and the confirm may have taken them away. The reply is dropped.
  static func checkStillAllowed(_ pending: PendingReplies.Reply, _ context: CommandContext) throws {
    if context.accountRole < pending.neededRole {
      throw CommandError.failed(
        "Posting it needs the \(pending.neededRole) role for the bot's forum account, which you no longer have (you "
          + "are \(context.accountRole.withArticle)), so the reply was dropped; nothing was posted.")
    }
    if case .privateMessage = pending.target, !context.privateMessageRooms.contains(context.room) {
      throw CommandError.failed(
        "This room is no longer configured for private messages (privateMessages.rooms), so the reply was dropped; "
          + "nothing was sent.")
    }
  }

  static func minutes(_ context: CommandContext) -> Int { Int(context.pendingReplies.lifetime / 60) }

  private static func send(_ pending: PendingReplies.Reply, _ context: CommandContext) async throws -> CommandReply {
    var reply = CommandReply()
    switch pending.target {
    case .thread(let threadID, let title, let quote):
      let posted = (quote.map { $0.bbcode } ?? "") + pending.text
      let result = try await context.forum.reply(threadID: threadID, text: posted)
      let link = await confirmedLink(result, threadID: threadID, context)
      if let postID = link.postID {
        // Posted: a failure to note it costs at most the post relayed back to this room, so it does not fail the reply.
        try? await context.relayMap.notePostedFromChat(room: context.room, postID: postID)
      }
      if let quote {
        reply.add(
          .text("Posted: "), .link(label: "“\(title)”", url: link.url),
          .text(", quoting \(quote.author)" + (link.confirmed ? "." : link.caveat)))
        // Where the medium edits messages, the preview itself becomes the answer.
        if context.capabilities.edits, let request = pending.requestID {
          context.answer.replaces = try? await context.relayMap.answerReceipt(room: context.room, answering: request)
        }
      } else {
        reply.add(
          .text("Posted to "), .link(label: "“\(title)”", url: link.url), .text(link.confirmed ? "." : link.caveat))
      }
    case .privateMessage(let id, let subject, let sender):
      try await context.forum.replyToPrivateMessage(id: id, text: pending.text)
      reply.add(
        .text("Sent\(sender.map { " to \($0)" } ?? "") as a reply to "),
        .link(label: "“\(subject)”", url: context.links.privateMessage(id: id)), .text("."))
    }
    return reply
  }

  /// The link to the new post on the page that holds it, read back from the thread's last page: "Posted" is said
  /// only when the forum shows the post. When the page does not show it (yet), the link goes to the thread's last
  /// post and the answer says so.
  private static func confirmedLink(_ result: ReplyResult, threadID: String, _ context: CommandContext) async
    -> PostedLink
  {
    let lastPage = try? await context.forum.threadPage(threadID: threadID, page: .last)
    let posts = lastPage?.posts ?? []
    let found: Post? =
      switch result {
      case .post(let id): posts.first { $0.id == id }
      case .lastPostInThread: posts.last
      }
    // Only an id the forum named is surely the bot's post: the last one on the page may be someone else's.
    let named: String? = if case .post(let id) = result { id } else { nil }
    if let found {
      return PostedLink(
        url: context.links.post(PostAddress(threadID: threadID, postID: found.id, index: found.index)),
        confirmed: true, postID: named)
    }
    switch result {
    case .post(let id): return PostedLink(url: context.links.post(id: id), confirmed: false, postID: id)
    case .lastPostInThread: return PostedLink(url: context.links.lastPost(inThread: threadID), confirmed: false)
    }
  }

  /// A posted reply's link, and whether the thread's last page showed the post.
  struct PostedLink: Sendable {
    var url: String
    var confirmed: Bool
    /// The new post's id, when the forum named it.
    var postID: String? = nil
    var caveat: String { " (the forum took it, but its last page does not show it yet)." }
  }

  static func runCancel(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard let dropped = await context.pendingReplies.cancel(key(context)) else {
      return CommandReply("There is no reply waiting for confirmation.")
    }
    if case .privateMessage = dropped.target { return CommandReply("Dropped the reply; nothing was sent.") }
    return CommandReply("Dropped the reply; nothing was posted.")
  }
}
