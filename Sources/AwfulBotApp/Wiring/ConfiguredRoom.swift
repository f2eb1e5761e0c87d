/// A room the configuration names, with what to set up there once its id is known: private-message alerts
/// (`privateMessages.rooms`) or subscriptions and a mode (`rooms[]`).
struct ConfiguredRoom: Sendable, Hashable {
  enum Purpose: Sendable, Hashable {
    case privateMessages
    case room(AppConfiguration.RoomSettings)
  }

  var transport: String
  /// As written in the config: a Matrix id or alias, an IRC channel.
  var room: String
  var purpose: Purpose

  /// Every room the configuration names: private-message rooms first, as they were seeded before.
  static func all(in configuration: AppConfiguration) -> [ConfiguredRoom] {
    let alerts = (configuration.privateMessages?.rooms ?? []).map {
      ConfiguredRoom(transport: $0.transport, room: $0.room, purpose: .privateMessages)
    }
    let rooms = (configuration.rooms ?? []).map {
      ConfiguredRoom(transport: $0.transport, room: $0.room, purpose: .room($0))
    }
    return alerts + rooms
  }
}
