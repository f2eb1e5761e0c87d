import Logging

/// A room the configuration names, with what to set up there once its id is known: private-message alerts
/// (`privateMessages.rooms`), subscriptions and a mode (`rooms[]`), or nothing but being named (a transport's own
/// rooms). Room power counts for the forum account in every one of them (`PermissionPolicy.namedRooms`).
struct ConfiguredRoom: Sendable, Hashable {
  enum Purpose: Sendable, Hashable {
    case privateMessages
    case room(AppConfiguration.RoomSettings)
    /// Named in a transport's own settings (IRC `channels`, Matrix `rooms`).
    case transportRoom
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

  /// Every room the configuration names, the transports' own rooms after those of `all(in:)`.
  static func named(in configuration: AppConfiguration) -> [ConfiguredRoom] {
    var rooms = all(in: configuration)
    for settings in configuration.transports {
      rooms += settings.namedRooms.map {
        ConfiguredRoom(transport: settings.resolvedName, room: $0, purpose: .transportRoom)
      }
    }
    return rooms
  }
}
