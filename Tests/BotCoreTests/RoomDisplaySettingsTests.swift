import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// The two room settings that lived in the transports' configuration until issue 45, `pictures` (Matrix's
/// `images.rooms`) and `editNotices` (IRC's list of channels): set by command where the room's chat service uses
/// them, undone like any room setting, shown by `status`, and read by what acts on them (the dispatcher puts the
/// room's picture display on each relay at the moment of sending).
@Suite("room settings: pictures and edit notices")
struct RoomDisplaySettingsTests {
  static let showsPictures = ChatCapabilities(edits: true, replies: true, reactions: true, pictures: true)

  func answer(_ bot: CommandHarness, _ text: String, role: Role? = .admin, capabilities: ChatCapabilities) async
    -> String
  {
    await bot.router.handle(bot.message(text, role: role), capabilities: capabilities)?.text ?? "<no answer>"
  }

  @Test("!pictures: links or inline where the service shows pictures, refused where it does not, undone by !undo")
  func picturesByCommand() async throws {
    let bot = try await CommandHarness()
    #expect(
      await answer(bot, "!pictures links", capabilities: .plainText)
        == "Pictures reach this room as links anyway: the bot shows none on this chat service.")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).pictures == .inline, "nothing stored")
    #expect(
      await answer(bot, "!pictures links", capabilities: Self.showsPictures)
        == "Pictures in relayed posts stay links here; nothing is downloaded for this room.")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).pictures == .links)
    #expect(await bot.say("!status").contains("pictures: links"))
    #expect(await answer(bot, "!pictures sideways", capabilities: Self.showsPictures).contains("Usage: !pictures"))
    #expect(
      await answer(bot, "!pictures inline", role: .viewer, capabilities: Self.showsPictures).contains(
        "the member role"))
    #expect(await bot.say("!undo") == "Undone: set pictures to links.")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).pictures == .inline)
    #expect(!(await bot.say("!status")).contains("pictures:"), "the default is not spelled out")
  }

  @Test("!editnotices: on or off where the service cannot edit, refused where the relay itself is edited")
  func editNoticesByCommand() async throws {
    let bot = try await CommandHarness()
    #expect(
      await answer(bot, "!editnotices on", capabilities: Self.showsPictures)
        == "Edits on the forum change the relay itself here: the bot edits its messages on this chat service.")
    #expect(
      await answer(bot, "!editnotices on", capabilities: .plainText)
        == "When a post relayed here is edited on the forum, one line will say so.")
    #expect(try await bot.engine.roomSettings.settings(room: bot.room).editNotices)
    #expect(await bot.say("!status").contains("edit notices: on"))
    #expect(
      await answer(bot, "!editnotices off", capabilities: .plainText)
        == "Edits on the forum will no longer be told here.")
    #expect(await answer(bot, "!editnotices maybe", capabilities: .plainText).contains("Usage: !editnotices on | off"))
  }

  @Test("the dispatcher sends each relay with the room's picture display as it is at the moment of sending")
  func picturesOnTheMessage() async throws {
    let h = try EngineHarness(transport: RecordingTransport(capabilities: Self.showsPictures))
    h.forum.addThread("1", posts: 2)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room)
    await h.cycle()
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "alice", text: "a picture")
    await h.cycle()
    #expect(h.transport.sent.last?.message.pictures == .inline)

    // Queued under one setting, sent after the change: the change applies to what waited in the queue.
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "bob", text: "another picture")
    await h.engine.polling.poll(.bookmarks)
    let before = h.transport.sent.count
    try await h.engine.roomSettings.update(room: h.room) { $0.pictures = .links }
    await h.dispatcher.drain()
    let released = h.transport.sent.dropFirst(before)
    #expect(released.count == 1 && released.first?.message.pictures == .links, "\(released)")
  }

  @Test("a transport that shows no pictures gets no picture display, whatever the room says")
  func noPicturesWithoutTheCapability() async throws {
    let h = try EngineHarness()
    try await h.engine.roomSettings.update(room: h.room) { $0.pictures = .links }
    h.forum.addThread("1", posts: 2)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room)
    await h.cycle()
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "alice", text: "words")
    await h.cycle()
    #expect(h.transport.sent.last.map { $0.message.pictures == nil } == true)
  }
}
