import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Testing

@testable import BotCore

/// Private-message alerts on the real stack: the emulator's inbox read through the HTTP client, the store on a file,
/// messages delivered through the emulator while the bot runs, and a restart on the same file.
@Suite("Loopback private messages")
struct LoopbackPrivateMessageTests {
  static let rooms = [RoomRef(transport: "test", room: "!room"), RoomRef(transport: "test", room: "!other")]

  static func configure(_ configuration: inout EngineConfiguration) {
    configuration.privateMessageRooms = rooms
  }

  @Test("each new private message is one alert in each configured room, once, also after a restart; one request a poll")
  func exactlyOncePerRoomAcrossRestarts() async throws {
    try await withLoopbackWorld { world in
      let transport = RecordingTransport()
      let first = try world.startBot(transport: transport, configure: Self.configure)
      #expect(try await first.engine.polling.sources().contains(.privateMessages))
      // An old message is in the inbox before the bot starts: recorded, never alerted.
      _ = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "Old news", body: "From before the bot.")
      let seeding = await first.engine.polling.poll(.privateMessages)
      await first.dispatcher.drain()
      #expect(seeding.succeeded, "\(seeding.error ?? "")")
      #expect(seeding.queued == 0 && transport.sent.isEmpty)

      let one = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "About your relay",
        body: "Please do not quote this in chat.")
      let two = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "Second thoughts", body: "Never mind.")
      await world.state.clearRequests()
      let report = await first.engine.polling.poll(.privateMessages)
      await first.dispatcher.drain()
      #expect(report.succeeded && report.requests == 1 && report.queued == 4)
      #expect(await world.state.requests().count == 1, "one inbox request")
      for room in Self.rooms {
        let sent = transport.sent(to: room.room)
        #expect(sent.map(\.key) == [one, two].map { "test|\(room.room)|pm:\($0)" })
        let text = try #require(sent.first?.message.text)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "header and link only: \(text)")
        #expect(lines.first?.hasPrefix("Private message “About your relay” from Pickled Tink, 20") == true, "\(text)")
        #expect(lines.last == "\(world.baseURL.absoluteString)private.php?action=show&privatemessageid=\(one)")
        // Excerpts are off by default: the text stays on the forum.
        #expect(!text.contains("Please do not quote"))
      }

      // Nothing new: one request, nothing queued.
      await world.state.clearRequests()
      let quiet = await first.engine.polling.poll(.privateMessages)
      #expect(quiet.requests == 1 && quiet.queued == 0)
      #expect(await world.state.requests().map(\.path) == ["/private.php"])
      try await first.stop()

      // A restart on the same database alerts nothing again, and the next message once.
      let second = try world.startBot(transport: transport, configure: Self.configure)
      let again = await second.engine.polling.poll(.privateMessages)
      await second.dispatcher.drain()
      #expect(again.succeeded && again.queued == 0)
      #expect(transport.sent.count == 4)
      let three = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "Third", body: "Hello again.")
      await second.engine.polling.poll(.privateMessages)
      await second.dispatcher.drain()
      #expect(transport.sent.count == 6)
      #expect(transport.sent.suffix(2).map(\.key).sorted() == Self.rooms.map { "test|\($0.room)|pm:\(three)" }.sorted())
      let keys = transport.sent.map(\.key)
      #expect(Set(keys).count == keys.count, "a key was sent twice")
      try await second.stop()
    }
  }

  @Test("the alert's link opens the message on the forum for the bot account")
  func linkOpensTheMessage() async throws {
    try await withLoopbackWorld { world in
      let transport = RecordingTransport()
      let bot = try world.startBot(transport: transport, configure: Self.configure)
      await bot.engine.polling.poll(.privateMessages)
      let id = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "Link check", body: "The words of the message.")
      await bot.engine.polling.poll(.privateMessages)
      await bot.dispatcher.drain()
      let link = try #require(transport.sent(to: "!room").first?.message.link)
      #expect(link.hasSuffix("private.php?action=show&privatemessageid=\(id)"))
      try await ForumLinkFollower.with(
        world.baseURL, username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword
      ) { follower in
        let landing = try await follower.follow(link)
        #expect(landing.status == 200)
        #expect(landing.body.contains("Link check") && landing.body.contains("The words of the message."))
      }
      try await bot.stop()
    }
  }

  @Test("with excerpts on, the alert quotes the message (one more request per new message)")
  func excerptOn() async throws {
    try await withLoopbackWorld { world in
      let transport = RecordingTransport()
      let bot = try world.startBot(transport: transport) { configuration in
        configuration.privateMessageRooms = [Self.rooms[0]]
        configuration.privateMessageExcerpt = true
      }
      await bot.engine.polling.poll(.privateMessages)
      _ = try await world.state.sendPrivateMessage(
        from: LoopbackWorld.poster, to: LoopbackWorld.botUserID, title: "Quoted", body: "Words worth quoting.")
      let report = await bot.engine.polling.poll(.privateMessages)
      await bot.dispatcher.drain()
      #expect(report.requests == 2 && report.queued == 1)
      #expect(transport.sent.first?.message.text.contains("\nWords worth quoting.\n") == true)
      try await bot.stop()
    }
  }

  @Test("no private-message room configured: the inbox is never polled")
  func noRoomsNoPolling() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      #expect(try await !bot.engine.polling.sources().contains(.privateMessages))
      try await bot.stop()
    }
  }
}
