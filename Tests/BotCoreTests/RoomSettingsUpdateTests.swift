import AwfulBotEngineTestKit
import BotCore
import BotStore
import Foundation
import Testing

/// One `update(room:_:)` for every room setting, and the undo it hands back.
@Suite("room settings: one update, one undo")
struct RoomSettingsUpdateTests {
  @Test("undoing a change puts back only what it altered; a later change to another setting stays")
  func undoRestoresOnlyWhatChanged() async throws {
    let h = try EngineHarness()
    let mode = try await h.engine.roomSettings.update(room: h.room) { $0.mode = .digest(.hourly) }
    try await h.engine.roomSettings.update(room: h.room) { $0.unfurl = false }
    try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(QuietHours(parsingDaily: "22:00-06:00")) }

    try await h.engine.undo.record(room: h.room, userID: "alice", summary: "mode", actions: [mode.undo])
    let entry = try #require(try await h.engine.undo.take(room: h.room, userID: "alice"))
    try await h.engine.undo.revert(entry)

    let settings = try await h.engine.roomSettings.settings(room: h.room)
    #expect(settings.mode == .each)
    #expect(!settings.unfurl, "the later unfurl change stays")
    #expect(settings.quietHours == QuietHours(parsingDaily: "22:00-06:00"))
  }

  @Test("undoing a setting that was not set before clears it again")
  func undoClearsWhatWasUnset() async throws {
    let h = try EngineHarness()
    let until = h.clock.now().addingTimeInterval(3600)
    let quiet = try await h.engine.roomSettings.update(room: h.room) { $0.setQuiet(.until(until)) }
    #expect(quiet.after.quietUntil == until)
    let entry = UndoEntry(
      id: 1, room: h.room, userID: "alice", summary: "quiet", actions: [quiet.undo], createdAt: h.clock.now())
    try await h.engine.undo.revert(entry)
    #expect(try await h.engine.roomSettings.settings(room: h.room).quietUntil == nil)
  }

  @Test("a change that alters nothing has an empty undo")
  func unchangedIsEmpty() async throws {
    let h = try EngineHarness()
    let change = try await h.engine.roomSettings.update(room: h.room) { $0.unfurl = true }
    guard case .restoreRoomSettings(let patch) = change.undo else {
      Issue.record("a settings change's undo restores settings")
      return
    }
    #expect(patch.isEmpty)
  }

  @Test("settings no room may have are refused and nothing is stored", arguments: [0, -3])
  func invalidIsRefused(threshold: Int) async throws {
    let h = try EngineHarness()
    await #expect(throws: EngineError.self) {
      try await h.engine.roomSettings.update(room: h.room) {
        $0.unfurl = false
        $0.mode = .summary(threshold: threshold)
      }
    }
    let settings = try await h.engine.roomSettings.settings(room: h.room)
    #expect(settings.mode == .each)
    #expect(settings.unfurl, "the whole change is refused, not the part before the bad value")
  }

  @Test("an undo entry in a shape this version cannot read is dropped, not an error on every later undo")
  func unreadableUndoIsDropped() async throws {
    let h = try EngineHarness()
    try await h.engine.database.write { tx in
      _ = try tx.insertUndo(
        UndoRecord(
          transport: h.room.transport, room: h.room.room, userID: "alice", summary: "set the mode to digest",
          actions: #"[{"setMode":{"_0":{"each":{}}}}]"#, createdAt: h.clock.now()))
    }
    #expect(try await h.engine.undo.take(room: h.room, userID: "alice") == nil)
    #expect(try await h.engine.undo.take(room: h.room, userID: "alice") == nil)
  }

  @Test("through commands: undo reverts the sender's change only, and a no-op change leaves their last real one")
  func commandsUndoWhatTheyChanged() async throws {
    let bot = try await CommandHarness()
    #expect(await bot.say("!mode summary 3", sender: "alice").contains("Mode set"))
    #expect(await bot.say("!unfurl off", sender: "bob").contains("no longer be unfurled"))
    #expect(await bot.say("!mode summary 3", sender: "alice").contains("Mode set"), "the same mode again")
    #expect(await bot.say("!undo", sender: "alice").contains("Undone: set the mode to summary"))
    let settings = try await bot.engine.roomSettings.settings(room: bot.room)
    #expect(settings.mode == .each, "alice's change is reverted, not the no-op that repeated it")
    #expect(!settings.unfurl, "bob's change stays")
    #expect(await bot.say("!undo", sender: "alice").contains("Nothing of yours to undo"))
  }
}
