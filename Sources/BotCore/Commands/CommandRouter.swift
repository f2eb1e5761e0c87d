import ChatBridge
import ForumModel
import Foundation
import Logging

/// Takes a chat message, decides whether it is for the bot, checks the sender's role, runs the command and turns
/// the outcome (answer or error) into a `.reply` message answering it. Lines that are not commands get a link
/// unfurl when the room wants one. Never throws: every failure becomes a one-line answer.
package struct CommandRouter: Sendable {
  package var parser: CommandParser
  package var permissions: PermissionPolicy
  package var forum: any Forum
  package var engine: any CommandEngine
  package var composer: MessageComposer
  package var commands: [CommandSpec]
  package var pendingReplies: PendingReplies
  package var logger: Logger
  private let now: @Sendable () -> Date

  package init(
    parser: CommandParser, permissions: PermissionPolicy, forum: any Forum, engine: any CommandEngine,
    composer: MessageComposer, commands: [CommandSpec] = CommandRegistry.all,
    pendingReplies: PendingReplies = PendingReplies(), logger: Logger = Logger(label: "awfulbot.commands"),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.parser = parser
    self.permissions = permissions
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
    guard let reply = await reply(to: message, capabilities: capabilities) else { return nil }
    return OutgoingMessage(.answer(reply), inReplyTo: message.messageID)
  }

  /// The answer as reply lines (for tests and transports that format themselves).
  package func reply(to message: IncomingMessage, capabilities: ChatCapabilities = .plainText) async -> CommandReply? {
    switch parser.parse(message.text, isDirect: message.isDirect || message.addressed) {
    case nil:
      return await unfurl(message)
    case .failure(let error):
      return CommandReply(error.description)
    case .success(let input):
      // "awfulbot is down" is talk about the bot, not to it: the casual address answers known commands only.
      if message.addressedCasually && !message.isDirect && !isKnown(input.name) { return nil }
      return await run(input, message: message, capabilities: capabilities)
    }
  }

  private func isKnown(_ name: String) -> Bool {
    commands.contains { $0.name == name || $0.aliases.contains(name) }
  }

  private func run(_ input: CommandInput, message: IncomingMessage, capabilities: ChatCapabilities) async
    -> CommandReply
  {
    let prefix = parser.prefix
    guard let spec = commands.first(where: { $0.name == input.name || $0.aliases.contains(input.name) }) else {
      let names = commands.flatMap { [$0.name] + $0.aliases }
      let hint = CommandSuggester.closest(to: input.name, among: names).map { "Did you mean \(prefix)\($0)? " } ?? ""
      return CommandReply("Unknown command “\(input.name)”. \(hint)\(prefix)help lists the commands.")
    }
    if let denial = permissions.denial(for: message, command: spec.name, needs: spec.role) {
      logger.info(
        "command denied",
        metadata: [
          "command": "\(spec.name)", "transport": "\(message.transport)", "room": "\(message.room)",
          "sender": "\(message.senderID)", "needs": "\(spec.role)",
        ])
      return CommandReply(denial)
    }
    if let error = input.syntaxError, !spec.takesRawText {
      return CommandReply("\(error.description) Usage: \(spec.usageLine(prefix: prefix))")
    }
    let context = CommandContext(
      message: message, room: RoomRef(transport: message.transport, room: message.room),
      role: permissions.role(of: message), capabilities: capabilities, forum: forum, engine: engine, composer: composer,
      now: now(),
      pendingReplies: pendingReplies, prefix: prefix, commands: commands)
    do {
      let reply = try await spec.run(input, context)
      logger.debug("command done", metadata: ["command": "\(spec.name)", "transport": "\(message.transport)"])
      return reply
    } catch CommandError.usage(let detail) {
      return CommandReply(
        [detail, "Usage: \(spec.usageLine(prefix: prefix))"].compactMap { $0 }.joined(separator: " "))
    } catch let error as any ForumFailure where error.isNotFound {
      // A thread or post that does not exist: the asker's mistake, answered as such.
      logger.debug("command refused", metadata: ["command": "\(spec.name)", "transport": "\(message.transport)"])
      return CommandReply(error.description)
    } catch let error as CommandError {
      // The user's mistake or an expected refusal: the answer says it all.
      logger.debug("command refused", metadata: ["command": "\(spec.name)", "transport": "\(message.transport)"])
      return CommandReply(error.description)
    } catch {
      logger.warning(
        "command failed",
        metadata: [
          "command": "\(spec.name)", "error": "\(ErrorText.describe(error))", "transport": "\(message.transport)",
        ])
      return CommandReply(ErrorText.describe(error))
    }
  }

  private func unfurl(_ message: IncomingMessage) async -> CommandReply? {
    guard message.text.contains("showthread.php") else { return nil }
    let room = RoomRef(transport: message.transport, room: message.room)
    guard let settings = try? await engine.settings(room: room), settings.unfurl else { return nil }
    return await LinkUnfurler(forum: forum, dates: composer.dates).unfurl(message.text)
  }
}
