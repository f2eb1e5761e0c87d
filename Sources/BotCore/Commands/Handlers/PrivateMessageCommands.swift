import ChatBridge
import ForumModel
import Foundation

/// The bot account's private messages: `pms` lists the unread ones, `pm <id>` shows one, `pmreply <id> <text>`
/// answers one after a preview and `confirm` (as `reply`). Private messages are private: all three work only in a
/// room configured for them (`privateMessages.rooms`), and only for admins of the account. A direct chat does not
/// count: whoever invites the bot marks the chat direct, so it proves nothing about who reads it.
enum PrivateMessageCommands {
  static let list = CommandSpec(
    name: "pms", summary: "The bot account's unread private messages (private-message rooms and direct chats only).",
    role: .admin, scope: .account, run: runList)

  static let show = CommandSpec(
    name: "pm", usage: "<id>", summary: "Read one of the bot account's private messages (marks it read).",
    role: .admin, scope: .account, run: runShow)

  static let reply = CommandSpec(
    name: "pmreply", usage: "<id> <text>",
    summary: "Answer a private message as the bot account (shows a preview to confirm).", role: .admin,
    scope: .account, takesRawText: true, run: runReply)

  /// Longest text `pm` shows; the forum's own limit on a message is lower, so this cuts nothing in practice.
  static let maximumShownCharacters = 20_000

  /// Refuses a room where others may read along.
  static func requirePrivateRoom(_ input: CommandInput, _ context: CommandContext) throws {
    guard context.privateMessageRooms.contains(context.room) else {
      throw CommandError.failed(
        "\(context.prefix)\(input.name) works only in a room the bot's config names for private messages "
          + "(privateMessages.rooms), and this one is not among them.")
    }
  }

  static func messageID(_ argument: String?, _ context: CommandContext) throws -> String {
    guard let argument else { throw CommandError.usage(nil) }
    let id = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
    guard !id.isEmpty, id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
      throw CommandError.usage("“\(argument)” is not a private message id: give the number \(context.prefix)pms shows.")
    }
    return id
  }

  static func runList(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    try requirePrivateRoom(input, context)
    guard input.values.isEmpty else { throw CommandError.usage(nil) }
    let inbox = try await context.forum.privateMessages()
    let unread = inbox.filter(\.isUnread)
    var reply = CommandReply()
    guard !unread.isEmpty else {
      reply.add(
        "No unread private messages (the inbox shows \(NameList.count(inbox.count, "message"))).")
      return reply
    }
    reply.add("\(NameList.count(unread.count, "unread private message")), newest first:")
    for message in unread {
      reply.add(item: line(message, context))
    }
    reply.add(.code("\(context.prefix)pm <id>"), .text(" reads one."))
    return reply
  }

  /// "#123 “Subject” from Alice, date" with the link on the subject.
  static func line(_ message: PrivateMessageHeader, _ context: CommandContext) -> [CommandAnswer.Part] {
    let subject = message.subject.isEmpty ? "(no subject)" : message.subject
    var parts: [CommandAnswer.Part] = [
      .text("#\(message.id) "), .link(label: "“\(subject)”", url: context.links.privateMessage(id: message.id)),
    ]
    if let sender = message.sender { parts.append(.text(" from \(sender)")) }
    if let date = message.sentDate {
      parts += [.text(", "), context.composer.dates.part(date)]
    }
    return parts
  }

  static func runShow(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    try requirePrivateRoom(input, context)
    guard input.values.count == 1 else { throw CommandError.usage(nil) }
    let message = try await context.forum.privateMessage(id: try messageID(input.values.first, context))
    var reply = CommandReply()
    reply.lines.append(
      .sentence(
        line(
          PrivateMessageHeader(
            id: message.id, subject: message.subject, sender: message.sender, sentDate: message.sentDate,
            isUnread: false), context)))
    if message.body.isEmpty {
      reply.add("(no text)")
    } else {
      reply.lines.append(.excerpt(body: message.body, maxCharacters: maximumShownCharacters))
    }
    reply.add(.code("\(context.prefix)pmreply \(message.id) <text>"), .text(" answers it."))
    return reply
  }

  static func runReply(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    try requirePrivateRoom(input, context)
    var argument = ""
    let text = try ReplyCommands.replyText(input, after: &argument)
    let id = try messageID(argument, context)
    let message = try await context.forum.privateMessage(id: id)
    if let probation = await context.forum.probation {
      throw ProbationText.refusal(probation, dates: context.composer.dates)
    }
    let subject = message.subject.isEmpty ? "(no subject)" : message.subject
    _ = await context.pendingReplies.hold(
      ReplyCommands.key(context), target: .privateMessage(id: id, subject: subject, sender: message.sender),
      text: text, now: context.now, neededRole: Self.reply.role, requestTrust: context.message.trust)
    var reply = CommandReply()
    reply.add(
      .text("Reply to "), .link(label: "“\(subject)”", url: context.links.privateMessage(id: id)),
      .text((message.sender.map { " from \($0)" } ?? "") + " as the bot account:"))
    ReplyCommands.addPreview(of: text, confirming: "send it", to: &reply, context)
    return reply
  }
}
