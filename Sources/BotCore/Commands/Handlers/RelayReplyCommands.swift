import ChatBridge
import ForumModel
import Foundation

/// Answering a relay: a Matrix reply to a relayed post, `re r7 <text>`, or `<nick>: ^ <text>` (the channel's last
/// relay) starts a forum reply that quotes the post the way the forum's Quote button does, then the user's text.
/// Previewed and confirmed like `reply` (`confirm`, or ✅ on the preview; in an encrypted room a Matrix reply by
/// `confirm` only, see `start(answering:checkedText:byRelation:_:)`). Who may do it is the room's `replies`
/// setting (admins by default): the post speaks for the bot's forum account.
enum RelayReplyCommands {
  static let re = CommandSpec(
    name: "re", usage: "<reference> <text>",
    summary:
      "Reply on the forum to a relayed post, quoting it (the reference is the r-number before the relay; who may "
      + "is the room's replies setting, admins by default).",
    role: .viewer, scope: .account, takesRawText: true, run: runRe)

  static let replies = CommandSpec(
    name: "replies", usage: "off|viewer|member|admin",
    summary: "Who may post to the forum here by answering relayed posts (default admin).", role: .admin,
    scope: .account, run: runReplies)

  static let reactions = CommandSpec(
    name: "reactions", usage: "on|off",
    summary: "Whether 🔖 (bookmark), 👀 (watch) and an admin's ❌ (remove) on relays act here (default on).",
    role: .admin, run: runReactions)

  static func runReactions(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let enabled = try input.switchValue()
    try await context.changeRoomSettings("turned reactions \(enabled ? "on" : "off")") { $0.reactions = enabled }
    return CommandReply(
      enabled
        ? "Reactions on relays act here: 🔖 bookmarks the thread, 👀 watches it here, an admin's ❌ removes the relay."
        : "Reactions on relays no longer act here.")
  }

  static func runRe(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    var argument = ""
    let text = try ReplyCommands.replyText(input, after: &argument)
    guard let relay = try await context.relayMap.message(room: context.room, reference: argument) else {
      throw CommandError.failed(
        "No relayed post here carries “\(argument)” (from the last 30 days); use the r-number shown before a relay.")
    }
    return try await start(answering: relay, checkedText: text, context)
  }

  /// `<nick>: ^ <text>`: answers the room's last relay that carries a reference.
  static func answerLast(text: String, _ context: CommandContext) async throws -> CommandReply {
    guard let relay = try await context.relayMap.lastReferenced(room: context.room) else {
      throw CommandError.failed("There is no relayed post here to answer (from the last 30 days).")
    }
    return try await start(answering: relay, text: text, context)
  }

  /// The preview of a reply to `relay` with `text` as written (a Matrix reply, `^`), held for confirmation.
  /// - Parameter byRelation: the message is a reply to the relay (`IncomingMessage.replyTo`) rather than a command
  ///   naming it: where the service controls that relation (`RelationTrust.serverControlled`), only a `confirm` the
  ///   trust check passes posts it.
  static func start(
    answering relay: RelayedMessage, text rawText: String, byRelation: Bool = false, _ context: CommandContext
  ) async throws -> CommandReply {
    guard let text = try ReplyCommands.checkedText(rawText) else {
      throw CommandError.failed("The reply text is empty: write it after the reference.")
    }
    return try await start(answering: relay, checkedText: text, byRelation: byRelation, context)
  }

  /// The preview of a reply to `relay` with `text` already checked (`ReplyCommands.checkedText`).
  static func start(
    answering relay: RelayedMessage, checkedText text: String, byRelation: Bool = false, _ context: CommandContext
  ) async throws -> CommandReply {
    // The homeserver can make any line of an encrypted room a reply to a relay: such a preview is settled by a
    // command only, and never replaces one still waiting, which the sender's next `confirm` may be meant for.
    let confirmation: PendingReplies.Confirmation =
      byRelation && context.message.relationTrust.isServerControlled ? .command : .commandOrReaction
    guard relay.showsPost, let postID = relay.postID, let threadID = relay.threadID else {
      throw CommandError.failed(
        "That message of mine shows no forum post, so there is nothing to reply to on the forum; answer a relayed "
          + "post to reply to it.")
    }
    let settings = try await context.roomSettings.settings(room: context.room)
    switch settings.replies {
    case .off:
      throw CommandError.failed(
        "Replying to relayed posts is off in this room; an admin can turn it on with \(context.prefix)replies admin.")
    case .role(let needed) where context.accountRole < needed:
      // The room's setting says who may; what counts is the role for the account (a room the config does not name
      // gives room power no say over the forum account).
      guard context.roomIsNamed else {
        throw CommandError.failed(
          PermissionPolicy.accountRefusal(
            "Replying on the forum to a relayed post", needs: needed, has: context.accountRole, roomRole: context.role))
      }
      throw CommandError.failed(
        "Replying to relayed posts on the forum needs the \(needed) role here; you are \(context.accountRole.withArticle)."
      )
    case .role:
      break
    }
    if context.accountRole < .admin, let tag = markupReservedForAdmins(in: text) {
      throw CommandError.failed(
        "Your reply holds forum markup that only admins may post from chat ([\(tag)]): it would show a picture, a link "
          + "or a quote in the bot account's name. Write it without the tag and send it again.")
    }
    if confirmation == .command,
      await context.pendingReplies.live(ReplyCommands.key(context), now: context.now) != nil
    {
      throw CommandError.failed(
        "You have a reply waiting for confirmation: send \(context.prefix)confirm or \(context.prefix)cancel first. "
          + "In an encrypted room the homeserver can turn any line into a reply, so a reply never replaces a waiting "
          + "preview.")
    }
    let page = try await context.forum.threadPage(threadID: threadID, page: .last)
    if let probation = await context.forum.probation {
      throw ProbationText.refusal(probation, dates: context.composer.dates)
    }
    if page.isClosed { throw CommandError.failed("“\(page.threadTitle)” is closed; it takes no replies.") }
    guard let quote = QuotedPost.parse(try await context.forum.quote(postID: postID), postID: postID) else {
      throw CommandError.failed("The forum did not offer a quote of that post; reply with \(context.prefix)reply.")
    }
    _ = await context.pendingReplies.hold(
      ReplyCommands.key(context), target: .thread(id: threadID, title: page.threadTitle, quote: quote), text: text,
      now: context.now, requestID: context.message.messageID, neededRole: Self.neededRole(settings.replies),
      requestTrust: context.message.trust, confirmation: confirmation)
    // The new post follows the thread's last one.
    let landing = (page.posts.last?.index ?? 0) / page.postsPerPage + 1
    var reply = CommandReply()
    // The quote and the user's words in blocks of their own, so nobody takes one for the other.
    reply.add(
      .text("Reply to "), .link(label: "“\(page.threadTitle)”", url: context.links.thread(threadID, page: landing)),
      .text(" as the bot account (it lands on page \(landing)), quoting \(quote.author):"))
    reply.lines.append(.quote([quote.excerpt]))
    reply.add("with your text:")
    ReplyCommands.addPreview(
      of: text, confirming: "post it", offeringReactions: context.capabilities.reactions, confirmation: confirmation,
      to: &reply, context)
    return reply
  }

  /// BBCode tags that put something in the bot account's name that the words do not show: a picture, a link, a quote
  /// claiming another post (`[quote="Admin" post="1"]`), a video. Returns the first one found, lowercased.
  static func markupReservedForAdmins(in text: String) -> String? {
    let pattern = /\[\/?(img|timg|url|quote|video)(?=[\]=\s])/.ignoresCase()
    return text.firstMatch(of: pattern).map { String($0.1).lowercased() }
  }

  /// The role a reply to a relay needs under the room's `replies` setting (admin when it is off, which cannot start one).
  static func neededRole(_ permission: ReplyPermission) -> Role {
    if case .role(let role) = permission { role } else { .admin }
  }

  static func runReplies(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.count == 1, let permission = ReplyPermission(name: input.values[0]) else {
      throw CommandError.usage(nil)
    }
    try await context.changeRoomSettings("set replies to \(permission)") { $0.replies = permission }
    switch permission {
    case .off: return CommandReply("Answering relayed posts no longer posts to the forum from this room.")
    case .role(let role):
      return CommandReply(
        "From now on \(role == .viewer ? "anyone" : role == .admin ? "admins" : "\(role)s and up") may reply on the forum here by answering a "
          + "relayed post (a preview to confirm first).")
    }
  }
}
