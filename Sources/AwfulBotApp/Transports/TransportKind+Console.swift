import BotCore
import ChatBridge

extension TransportKind {
  /// The terminal as one chat room (`console`), with the person at the keyboard as admin.
  package static let console = TransportKind(
    type: .console, summary: "this terminal as a chat room (for trying the bot out)", options: [:],
    make: { settings, _ in ConsoleTransport(name: settings.resolvedName) },
    probe: { settings, _ in
      CheckResult(.pass, "transport \(settings.resolvedName) (console)", detail: "nothing to reach")
    },
    // The console's one room is the terminal: nobody else reads it.
    roomMembers: { _, _, _, _ in [] })
}
