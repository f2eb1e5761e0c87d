import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// Takes a chat message, decides whether it is for the bot, checks the sender's role, runs the command and turns
/// the outcome (answer or error) into a `.reply` message answering it. Lines that are not commands get a link
/// unfurl when the room wants one. Never throws: every failure becomes a one-line answer.
package struct CommandRouter: Sendable {
  package var parser: CommandParser
  /// Shared by the routers of every transport, so a reloaded config changes them all (`SharedPermissions`).
  package let sharedPermissions: SharedPermissions
  package var permissions: PermissionPolicy { sharedPermissions.current }
  package var forum: any Forum
  /// The engine whose parts each command context hands to its handler.
  package var engine: BotEngine
  package var composer: MessageComposer
  package var commands: [CommandSpec]
  package var pendingReplies: PendingReplies
  package var logger: Logger
  /// Senders already told that their unencrypted messages do not act in an encrypted room.
  package let untrustedSenders: UntrustedSenders
  /// Commands per user and room, and the forum requests commands may make (shared by every transport's router).
  package let budget: CommandBudget
  /// Each user's searches and each room's last search (shared by every transport's router, like the budget).
  package let searches: SearchBook
  /// Each room's last rap sheet, for `lepers more`.
  package let rapSheets = RapSheetBook()
  let now: @Sendable () -> Date

  package init(
    parser: CommandParser, permissions: SharedPermissions, forum: any Forum, engine: BotEngine,
    composer: MessageComposer, commands: [CommandSpec] = CommandRegistry.all,
    pendingReplies: PendingReplies = PendingReplies(), logger: Logger = Logger(label: "awfulbot.commands"),
    untrustedSenders: UntrustedSenders = UntrustedSenders(), budget: CommandBudget = CommandBudget(),
    searches: SearchBook? = nil, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.budget = budget
    self.searches = searches ?? SearchBook(budget: budget)
    self.untrustedSenders = untrustedSenders
    self.parser = parser
    self.sharedPermissions = permissions
    self.forum = forum
    self.engine = engine
    self.composer = composer
    self.commands = commands
    self.pendingReplies = pendingReplies
    self.logger = logger
    self.now = now
  }

  /// The answer to send, or nil when the message needs none.
  package func handle(_ message: IncomingMessage, capabilities: ChatCapabilities) async -> OutgoingMessage? {
    let options = AnswerOptions()
    guard let reply = await reply(to: message, capabilities: capabilities, options: options) else { return nil }
    // An edit replaces the earlier answer (a preview becoming "Posted"); it answers nothing new.
    if let replaced = options.replaces, capabilities.edits {
      return OutgoingMessage(.answer(reply), replaces: replaced)
    }
    return OutgoingMessage(.answer(reply), inReplyTo: message.messageID)
  }

  /// The answer as reply lines (for tests and transports that format themselves).
  package func reply(
    to message: IncomingMessage, capabilities: ChatCapabilities = .plainText, options: AnswerOptions = AnswerOptions()
  ) async -> CommandReply? {
    // An answer to one of the bot's own messages: a relayed post becomes a forum reply; anything else the bot said
    // gets one sentence. Such a message is never taken as a command.
    if let target = message.replyTo,
      let relayed = try? await engine.relayMap.message(
        room: RoomRef(transport: message.transport, room: message.room), messageID: target)
    {
      if let over = await overBudget(message) { return over.reply }
      if !message.trust.isTrusted { return await refuseUntrusted(message, doing: "A reply to a relayed post") }
      return await perform("reply to a relay", message: message, capabilities: capabilities, options: options) {
        try await RelayReplyCommands.start(answering: relayed, text: message.text, byRelation: true, $0)
      }
    }
    // `<nick>: ^ text` answers the room's last relay.
    if message.addressed, message.text.hasPrefix("^"), message.text.dropFirst().first?.isWhitespace ?? false {
      let text = String(message.text.dropFirst())
      if let over = await overBudget(message) { return over.reply }
      if !message.trust.isTrusted { return await refuseUntrusted(message, doing: "A reply to the last relay") }
      return await perform("reply to the last relay", message: message, capabilities: capabilities, options: options) {
        try await RelayReplyCommands.answerLast(text: text, $0)
      }
    }
    switch parser.parse(message.text, isDirect: message.isDirect || message.addressed) {
    case nil:
      return await unfurl(message)
    case .failure(let error):
      if let over = await overBudget(message) { return over.reply }
      return CommandReply(error.description)
    case .success(let input):
      // "awfulbot is down" is talk about the bot, not to it: the casual address answers known commands only.
      if message.addressedCasually && !message.isDirect && !isKnown(input.name) { return nil }
      if let over = await overBudget(message) { return over.reply }
      return await run(input, message: message, capabilities: capabilities, options: options)
    }
  }

  private func isKnown(_ name: String) -> Bool {
    commands.contains { $0.name == name || $0.aliases.contains(name) }
  }

  private func run(
    _ input: CommandInput, message: IncomingMessage, capabilities: ChatCapabilities, options: AnswerOptions
  ) async -> CommandReply? {
    let prefix = parser.prefix
    guard let spec = commands.first(where: { $0.name == input.name || $0.aliases.contains(input.name) }) else {
      let names = commands.flatMap { [$0.name] + $0.aliases }
      let hint = CommandSuggester.closest(to: input.name, among: names).map { "Did you mean \(prefix)\($0)? " } ?? ""
      return CommandReply("Unknown command “\(input.name)”. \(hint)\(prefix)help lists the commands.")
    }
    if spec.scope != .reading, !message.trust.isTrusted {
      return await refuseUntrusted(message, doing: "“\(prefix)\(spec.name)”")
    }
    if let denial = permissions.denial(for: message, command: spec.name, needs: spec.role, in: spec.scope) {
      logger.info(
        "command denied",
        metadata: [
          "command": "\(spec.name)", "transport": "\(message.transport)", "room": "\(message.room)",
          "sender": "\(message.senderID)", "needs": "\(spec.role)", "scope": "\(spec.scope)",
        ])
      return CommandReply(denial)
    }
    if let error = input.syntaxError, !spec.takesRawText {
      return CommandReply("\(error.description) Usage: \(spec.usageLine(prefix: prefix))")
    }
    return await perform(spec.name, message: message, capabilities: capabilities, options: options) {
      try await spec.run(input, $0)
    } usage: {
      spec.usageLine(prefix: prefix)
    }
  }

  /// The context a handler runs in for `message`.
  func context(for message: IncomingMessage, capabilities: ChatCapabilities, options: AnswerOptions) -> CommandContext {
    var context = CommandContext(
      message: message, room: RoomRef(transport: message.transport, room: message.room),
      role: permissions.role(of: message), accountRole: permissions.role(of: message, in: .account),
      capabilities: capabilities, forum: forum(for: message), engine: engine, composer: composer,
      now: now(), pendingReplies: pendingReplies, prefix: parser.prefix, commands: commands)
    context.answer = options
    context.searches = searches
    context.rapSheets = rapSheets
    context.roomIsNamed = permissions.isNamed(context.room)
    context.forumName = permissions.forumName(of: message)
    return context
  }

  /// Runs a handler and turns every failure into its one-sentence answer.
  func perform(
    _ name: String, message: IncomingMessage, capabilities: ChatCapabilities, options: AnswerOptions,
    _ body: (CommandContext) async throws -> CommandReply, usage: () -> String? = { nil }
  ) async -> CommandReply {
    let context = context(for: message, capabilities: capabilities, options: options)
    do {
      let reply = try await body(context)
      logger.debug("command done", metadata: ["command": "\(name)", "transport": "\(message.transport)"])
      return reply
    } catch CommandError.usage(let detail) {
      return CommandReply(
        [detail, usage().map { "Usage: \($0)" }].compactMap { $0 }.joined(separator: " "))
    } catch let error as any ForumFailure where error.isNotFound {
      // A thread or post that does not exist: the asker's mistake, answered as such.
      logger.debug("command refused", metadata: ["command": "\(name)", "transport": "\(message.transport)"])
      return CommandReply(error.description)
    } catch BotStoreError.storageFull {
      // The full disk is logged once when it begins (see `StorageLog`), not at every command it refuses.
      logger.debug(
        "command refused", metadata: ["command": "\(name)", "transport": "\(message.transport)", "reason": "disk full"])
      return CommandReply(ErrorText.describe(BotStoreError.storageFull))
    } catch EngineError.roomCapReached(let cap, let count, let maximum) {
      // A room at its cap is a refusal like the budget's, not a failure of the bot.
      logger.debug("command refused", metadata: ["command": "\(name)", "transport": "\(message.transport)"])
      return CommandReply(EngineError.roomCapReached(cap, count: count, maximum: maximum).description)
    } catch let error as CommandError {
      // The user's mistake or an expected refusal: the answer says it all.
      logger.debug("command refused", metadata: ["command": "\(name)", "transport": "\(message.transport)"])
      return CommandReply(error.description)
    } catch {
      logger.warning(
        "command failed",
        metadata: ["command": "\(name)", "error": "\(ErrorText.describe(error))", "transport": "\(message.transport)"])
      return CommandReply(ErrorText.describe(error))
    }
  }

  private func unfurl(_ message: IncomingMessage) async -> CommandReply? {
    guard message.text.contains("showthread.php") else { return nil }
    let room = RoomRef(transport: message.transport, room: message.room)
    guard let settings = try? await engine.roomSettings.settings(room: room), settings.unfurl else { return nil }
    // A preview costs forum requests like a command: it counts against the sender's budget, and is skipped in
    // silence over it (the link stays in the room; nobody asked the bot for anything).
    if await overBudget(message) != nil { return nil }
    return await LinkUnfurler(forum: forum(for: message), dates: composer.dates).unfurl(message.text)
  }
}
