import ChatBridge
import ForumModel
import Foundation

/// Reactions as quick commands (transports with `reactions`): ✅ or ❌ on a reply's preview confirms or drops it
/// (its author only); on a relayed post, 🔖 bookmarks its thread for the bot account, 👀 watches it in the room,
/// and ❌ from an admin removes the relay. Each checks the role its command needs, in its command's scope, and answers
/// in words when it cannot; done, the bot reacts ✅ on the relay. Reactions to anything else, or in a room that turned
/// reactions off, are ignored: people react to relays for their own reasons too.
///
/// Element sends reactions in clear even in encrypted rooms. An unencrypted ✅ or ❌ may still settle a preview, as
/// the words were asked for by the same user from a trusted session and the reaction adds none; 🔖, 👀 and an
/// admin's ❌ on a relay act only when they passed the trust check.
///
/// In an encrypted room a reaction's key and target are in clear, even an encrypted reaction's, and so is what makes
/// a line a reply (`RelationTrust.serverControlled`): the homeserver alone could write them. There 🔖 and 👀 never
/// act on the account (the answer names the command), and a preview a reply started is settled only by `confirm`.
extension CommandRouter {
  package enum ReactionKey {
    static let confirm = "✅"
    static let cancel = "❌"
    static let bookmark = "🔖"
    static let watch = "👀"
  }

  package func handle(_ reaction: IncomingReaction, capabilities: ChatCapabilities) async -> ReactionOutcome {
    let room = RoomRef(transport: reaction.transport, room: reaction.room)
    guard let target = try? await engine.relayMap.message(room: room, messageID: reaction.target) else {
      return .nothing
    }
    let message = reaction.asMessage
    let key = reaction.key
    if target.kind == .answer {
      return await previewReaction(key, on: target, message: message, capabilities: capabilities)
    }
    guard target.showsPost, let threadID = target.threadID,
      let settings = try? await engine.roomSettings.settings(room: room), settings.reactions
    else { return .nothing }
    if reaction.relationTrust.isServerControlled, key == ReactionKey.bookmark || key == ReactionKey.watch {
      return await forgeableReaction(message, command: key == ReactionKey.bookmark ? "bookmark" : "watch", threadID)
    }
    switch key {
    case ReactionKey.bookmark:
      return await quickCommand(
        BookmarkCommands.add, doing: "bookmarks its thread for the bot account", message: message,
        capabilities: capabilities
      ) { context in
        _ = try await context.bookmarks.bookmark(threadID: threadID, star: nil)
      }
    case ReactionKey.watch:
      return await quickCommand(
        WatchCommands.watch, doing: "watches its thread in this room", message: message, capabilities: capabilities
      ) { context in
        _ = try await context.subscriptions.watch(
          threadID: threadID, room: room, filters: .none, backfill: 0, createdBy: context.userID,
          mayAddBookmark: context.accountRole >= BookmarkCommands.add.role)
      }
    case ReactionKey.cancel:
      guard let receipt = target.receipt else { return .nothing }
      if !message.trust.isTrusted { return await untrustedOutcome(message, doing: "❌ on a relay") }
      let role = permissions.role(of: message)
      guard role >= .admin else {
        return ReactionOutcome(
          answer: answer("❌ on a relay removes it, which needs the admin role; you are \(role.withArticle).", message))
      }
      logger.info(
        "relay removed by reaction",
        metadata: ["transport": "\(room.transport)", "room": "\(room.room)", "sender": "\(message.senderID)"])
      return ReactionOutcome(redaction: receipt)
    default:
      return .nothing
    }
  }

  /// ✅ or ❌ on a preview, from the person whose preview it is.
  private func previewReaction(
    _ key: String, on preview: RelayedMessage, message: IncomingMessage, capabilities: ChatCapabilities
  ) async -> ReactionOutcome {
    let pendingKey = PendingReplies.Key(transport: message.transport, room: message.room, senderID: message.senderID)
    guard key == ReactionKey.confirm || key == ReactionKey.cancel,
      let pending = await pendingReplies.peek(pendingKey), let request = pending.requestID,
      request == preview.answeredMessageID
    else { return .nothing }
    // The words were asked for from a trusted session, and the reaction adds none: a ✅ sent in clear may settle them.
    // A preview asked for in clear has no such backing (it cannot arise while `reply` refuses such requests).
    if !message.trust.isTrusted, !pending.requestTrust.isTrusted {
      return await untrustedOutcome(message, doing: "\(key) on a preview")
    }
    if let over = await overBudget(message) { return outcome(over.reply, message) }
    // Started by a reply the homeserver may have made: its reaction would be the homeserver's word alone too.
    if pending.confirmation == .command {
      logger.notice(
        "reaction on a preview that needs a command not acted on",
        metadata: ["transport": "\(message.transport)", "room": "\(message.room)", "sender": "\(message.senderID)"])
      var refusal = CommandReply()
      refusal.add(
        .text(
          "A reaction does not settle this preview: it began as a reply in an encrypted room, and the homeserver "
            + "can forge replies and reactions there. Send "), .code("\(parser.prefix)confirm"),
        .text(" to post it, or "), .code("\(parser.prefix)cancel"), .text("."))
      return outcome(refusal, message)
    }
    let options = AnswerOptions()
    let reply: CommandReply
    if key == ReactionKey.confirm {
      reply = await perform("confirm", message: message, capabilities: capabilities, options: options) {
        try await ReplyCommands.confirm(pendingKey, $0)
      }
    } else {
      _ = await pendingReplies.cancel(pendingKey)
      reply = CommandReply("Dropped the reply; nothing was posted.")
      if capabilities.edits { options.replaces = preview.receipt }
    }
    if let replaced = options.replaces, capabilities.edits {
      return ReactionOutcome(answer: OutgoingMessage(.answer(reply), replaces: replaced))
    }
    return ReactionOutcome(answer: OutgoingMessage(.answer(reply), inReplyTo: message.messageID))
  }

  /// Runs what a reaction asks with the role its command needs; ✅ on the relay when done, words when not.
  private func quickCommand(
    _ spec: CommandSpec, doing what: String, message: IncomingMessage, capabilities: ChatCapabilities,
    _ body: (CommandContext) async throws -> Void
  ) async -> ReactionOutcome {
    if !message.trust.isTrusted { return await untrustedOutcome(message, doing: "\(message.text) on a relay") }
    if let over = await overBudget(message) { return outcome(over.reply, message) }
    let role = permissions.role(of: message, in: spec.scope)
    if role < spec.role {
      let named = permissions.isNamed(RoomRef(transport: message.transport, room: message.room))
      let refusal =
        spec.scope == .account && !named
        ? PermissionPolicy.accountRefusal(
          "\(message.text) on a relay", needs: spec.role, has: role,
          roomRole: permissions.role(of: message))
        : "\(message.text) on a relay \(what), which needs the \(spec.role) role; you are \(role.withArticle)."
      return ReactionOutcome(answer: answer(refusal, message))
    }
    let context = context(for: message, capabilities: capabilities, options: AnswerOptions())
    do {
      try await body(context)
      return ReactionOutcome(acknowledgement: ReactionKey.confirm)
    } catch {
      let reason = (error as? CommandError)?.description ?? ErrorText.describe(error)
      return ReactionOutcome(answer: answer("\(message.text) (\(prefixedName(spec))) failed: \(reason)", message))
    }
  }

  private func prefixedName(_ spec: CommandSpec) -> String { "\(parser.prefix)\(spec.name)" }

  /// 🔖 or 👀 where the homeserver controls reactions (an encrypted room): nothing done, the command to use said.
  private func forgeableReaction(_ message: IncomingMessage, command: String, _ threadID: String) async
    -> ReactionOutcome
  {
    logger.notice(
      "reaction in an encrypted room not acted on",
      metadata: [
        "transport": "\(message.transport)", "room": "\(message.room)", "sender": "\(message.senderID)",
        "command": "\(command)",
      ])
    if let over = await overBudget(message) { return outcome(over.reply, message) }
    var reply = CommandReply()
    reply.add(
      .text("In an encrypted room reactions can be forged by the server, so \(message.text) does nothing here: use "),
      .code("\(parser.prefix)\(command) \(threadID)"), .text(" instead."))
    return outcome(reply, message)
  }

  /// A refusal said once (the trust check, the budget) as the answer to the reaction; nothing once it was said.
  private func outcome(_ refusal: CommandReply?, _ message: IncomingMessage) -> ReactionOutcome {
    refusal.map { ReactionOutcome(answer: OutgoingMessage(.answer($0), inReplyTo: message.messageID)) } ?? .nothing
  }

  /// An unencrypted reaction that would act: told once per room and sender, then nothing.
  private func untrustedOutcome(_ message: IncomingMessage, doing action: String) async -> ReactionOutcome {
    outcome(await refuseUntrusted(message, doing: action), message)
  }

  private func answer(_ text: String, _ message: IncomingMessage) -> OutgoingMessage {
    OutgoingMessage(.answer(CommandReply(text)), inReplyTo: message.messageID)
  }
}
