import Foundation

/// What the room commands (`quiet`, `mode`, `pause`, `resume`, `unfurl`) and the router's link unfurling need: a
/// room's relay settings.
package protocol RoomSettingsEngine: Sendable {
  func settings(room: RoomRef) async throws -> RoomSettings
  func setMode(room: RoomRef, to mode: RelayMode) async throws -> RelayMode
  func setQuiet(room: RoomRef, to quiet: QuietHours?) async throws -> (daily: QuietHours?, until: Date?)
  func setUnfurl(room: RoomRef, to enabled: Bool) async throws -> Bool
  func setReplies(room: RoomRef, to permission: ReplyPermission) async throws -> ReplyPermission
  func setReactions(room: RoomRef, to enabled: Bool) async throws -> Bool
  func setPaused(room: RoomRef, to paused: Bool) async throws -> Bool
}
