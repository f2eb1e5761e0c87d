import ChatBridge
import Foundation

/// One command: how it is called, who may call it, and what it does.
package struct CommandSpec: Sendable {
  package typealias Handler = @Sendable (CommandInput, CommandContext) async throws -> CommandReply

  package var name: String
  package var aliases: [String]
  /// Arguments after the name, e.g. `<thread> [colour]`.
  package var usage: String
  package var summary: String
  /// The lowest role allowed to run it at all (a handler may ask more for some arguments).
  package var role: Role
  /// What it acts on, which decides whose grants count for `role` (`PermissionPolicy`); an event that passed no trust
  /// check runs only `reading` commands.
  package var scope: CommandScope
  /// Reads `rawArguments` itself, so unbalanced quotes in free text are not a syntax error.
  package var takesRawText: Bool
  package var run: Handler

  package init(
    name: String, aliases: [String] = [], usage: String = "", summary: String, role: Role,
    scope: CommandScope? = nil, takesRawText: Bool = false, run: @escaping Handler
  ) {
    // Open commands read; the rest act on the room unless they say they act on the account.
    self.scope = scope ?? (role == .viewer ? .reading : .room)
    self.takesRawText = takesRawText
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.summary = summary
    self.role = role
    self.run = run
  }

  /// `!bookmark <thread> [colour]`.
  package func usageLine(prefix: String) -> String {
    usage.isEmpty ? "\(prefix)\(name)" : "\(prefix)\(name) \(usage)"
  }
}
