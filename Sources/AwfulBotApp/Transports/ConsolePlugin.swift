import BotCore
import ChatBridge

/// The terminal as one chat room (`console`), with the person at the keyboard as admin.
package enum ConsolePlugin: TransportPlugin {
  /// The console takes no key but its name.
  package struct Configuration: KeyedConfiguration, Decodable {
    package var name: String

    package init(name: String) { self.name = name }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case name
    }

    package func value(at key: CodingKeys) -> AnyHashable {
      switch key {
      case .name: name
      }
    }
  }

  package static let type = TransportType.console
  package static let summary = "this terminal as a chat room (for trying the bot out)"

  package static func make(_ configuration: Configuration, context: TransportBuildContext) -> any ChatTransport {
    ConsoleTransport(name: configuration.name)
  }

  package static func probe(_ configuration: Configuration, context: TransportBuildContext) async -> CheckResult {
    CheckResult(.pass, "transport \(configuration.name) (console)", detail: "nothing to reach")
  }

  package static func roleSettings(_ configuration: Configuration) -> TransportRoleSettings { .console }

  /// The console's one room is the terminal: nobody else reads it.
  package static func roomMembers(
    _ configuration: Configuration, room: String, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async throws -> RoomMembersAnswer { .members([]) }
}

extension TransportType {
  package static let console = TransportType(rawValue: "console")
}
