import ChatBridge
import Foundation

/// `help` names every command in a few lines (grouped by the role they need), so it reads in one glance on every
/// transport, IRC included; `help <command>` explains one, and `help all` lists every command with its usage.
enum HelpCommand {
  static let spec = CommandSpec(
    name: "help", usage: "[command | all]", summary: "List the commands, explain one, or list all with their usage.",
    role: .viewer, run: run)

  static func run(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let prefix = context.prefix
    guard let name = input.values.first?.lowercased() else { return overview(context) }
    if name == "all" { return everything(context) }
    let wanted = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    guard let spec = context.commands.first(where: { $0.name == wanted || $0.aliases.contains(wanted) }) else {
      throw CommandError.failed("There is no command “\(wanted)”; \(prefix)help lists them.")
    }
    var reply = CommandReply()
    reply.add(.code(spec.usageLine(prefix: prefix)), .text(" — \(spec.summary)"))
    let aliases = spec.aliases.isEmpty ? "" : " Also: \(spec.aliases.map { prefix + $0 }.joined(separator: ", "))."
    reply.add("Needs the \(spec.role) role (you are \(context.role.withArticle)).\(aliases)")
    return reply
  }

  /// One line per role: every command is named, none explained.
  private static func overview(_ context: CommandContext) -> CommandReply {
    var reply = CommandReply()
    reply.add("\(NameList.count(context.commands.count, "command")) (you are \(context.role.withArticle)):")
    for role in Role.allCases {
      let names = context.commands.filter { $0.role == role }.map(\.name)
      guard !names.isEmpty else { continue }
      let marker = role > context.role ? ", not for you" : ""
      reply.add(
        field: "\(role.description.capitalized) (\(names.count)\(marker))", .text(names.joined(separator: ", ")))
    }
    reply.add(
      .code("\(context.prefix)help <command>"), .text(" explains one; "), .code("\(context.prefix)help all"),
      .text(" lists them all with their usage."))
    return reply
  }

  private static func everything(_ context: CommandContext) -> CommandReply {
    var reply = CommandReply()
    reply.add("All \(NameList.count(context.commands.count, "command")) (you are \(context.role.withArticle)):")
    for spec in context.commands {
      let marker = spec.role > context.role ? " [\(spec.role)]" : ""
      reply.add(item: [.code(spec.usageLine(prefix: context.prefix)), .text(" — \(spec.summary)\(marker)")])
    }
    return reply
  }
}
