import Foundation

/// What the room commands (`quiet`, `mode`, `pause`, `resume`, `pictures`, `editnotices`, `unfurl`) and the router's
/// link unfurling need: a room's relay settings.
package protocol RoomSettingsEngine: Sendable {
  func settings(room: RoomRef) async throws -> RoomSettings
  func update(room: RoomRef, _ change: @escaping @Sendable (inout RoomSettings) throws -> Void) async throws
    -> RoomSettingsChange
}

extension RoomSettingsBook: RoomSettingsEngine {}
