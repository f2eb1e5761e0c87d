import ChatBridge
import Foundation

enum HelpCommand {
  static let spec = CommandSpec(
    name: "help", usage: "[command]", summary: "List the commands, or explain one.", role: .viewer, run: run)

  static func run(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let prefix = context.prefix
    if let name = input.values.first?.lowercased() {
      let wanted = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
      guard let spec = context.commands.first(where: { $0.name == wanted || $0.aliases.contains(wanted) }) else {
        throw CommandError.failed("There is no command “\(wanted)”; \(prefix)help lists them.")
      }
      var reply = CommandReply()
      reply.add(.code(spec.usageLine(prefix: prefix)), .text(" — \(spec.summary)"))
      reply.add("Needs the \(spec.role) role.")
      return reply
    }
    var reply = CommandReply()
    reply.add("Commands (you are \(context.role)); \(prefix)help <command> explains one:")
    for spec in context.commands {
      let marker = spec.role > context.role ? " [\(spec.role)]" : ""
      reply.add(.code(spec.usageLine(prefix: prefix)), .text(" — \(spec.summary)\(marker)"))
    }
    return reply
  }
}
