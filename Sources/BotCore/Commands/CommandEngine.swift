/// Everything command handlers may need from the engine: each handler family is typed against its own part
/// (`SubscriptionsEngine`, `BookmarksEngine`, `RoomSettingsEngine`, `AlertsEngine`, `StatusEngine`, `UndoEngine`,
/// `PrivateMessageRoomsEngine`), reached through the matching property of `CommandContext`, so a handler's test
/// fakes only what that handler uses. `BotEngine` conforms as is (same signatures), so handlers run against the real
/// engine and store in tests; the protocols only keep handlers from reaching into engine internals.
package typealias CommandEngine =
  SubscriptionsEngine & BookmarksEngine & RoomSettingsEngine & AlertsEngine & StatusEngine & UndoEngine
  & PrivateMessageRoomsEngine & RelayMapEngine

extension BotEngine: CommandEngine {}
