/// What the alert commands (`alert`, `unalert`, `alerts`) need: a room's alert registrations.
package protocol AlertsEngine: Sendable {
  func addAlert(room: RoomRef, username: String, createdBy: String?) async throws -> Bool
  func removeAlert(room: RoomRef, username: String) async throws -> Bool
  func alerts(room: RoomRef) async throws -> [String]
}

extension AlertBook: AlertsEngine {}
