import ChatBridge
import ForumModel
import Foundation

/// Reactions as quick commands (transports with `reactions`): ✅ or ❌ on a reply's preview confirms or drops it
/// (its author only); on a relayed post, 🔖 bookmarks its thread for the bot account, 👀 watches it in the room,
/// and ❌ from an admin removes the relay. Each checks the role its command needs and answers in words when it
/// cannot; done, the bot reacts ✅ on the relay. Reactions to anything else, or in a room that turned reactions
/// off, are ignored: people react to relays for their own reasons too.
extension CommandRouter {
  package enum ReactionKey {
    static let confirm = "✅"
    static let cancel = "❌"
    static let bookmark = "🔖"
    static let watch = "👀"
  }

  package func handle(_ reaction: IncomingReaction, capabilities: ChatCapabilities) async -> ReactionOutcome {
    let room = RoomRef(transport: reaction.transport, room: reaction.room)
    guard let target = try? await engine.relayedMessage(room: room, messageID: reaction.target) else {
      return .nothing
    }
    let message = reaction.asMessage
    let key = reaction.key
    if target.kind == .answer {
      return await previewReaction(key, on: target, message: message, capabilities: capabilities)
    }
    guard target.showsPost, let threadID = target.threadID,
      let settings = try? await engine.settings(room: room), settings.reactions
    else { return .nothing }
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
          threadID: threadID, room: room, filters: .none, backfill: 0, createdBy: context.userID)
      }
    case ReactionKey.cancel:
      guard let receipt = target.receipt else { return .nothing }
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
    let role = permissions.role(of: message)
    if role < spec.role {
      return ReactionOutcome(
        answer: answer(
          "\(message.text) on a relay \(what), which needs the \(spec.role) role; you are \(role.withArticle).",
          message))
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

  private func answer(_ text: String, _ message: IncomingMessage) -> OutgoingMessage {
    OutgoingMessage(.answer(CommandReply(text)), inReplyTo: message.messageID)
  }
}
