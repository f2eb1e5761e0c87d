import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import BotCore

/// Configured rooms named by an alias its chat service cannot resolve at start (a homeserver down): the bot starts
/// anyway, and seeds them while it runs once the service answers, without a restart.
@Suite("configured rooms resolved late")
struct ConfiguredRoomRetryTests {
  static let alertsAlias = "#alerts:example.org"
  static let alertsID = "!alerts:example.org"
  static let roomAlias = "#goons:example.org"
  static let roomID = "!goons:example.org"

  @Test("an alias unresolvable at start is seeded once its service answers: subscriptions, mode and PM alerts")
  func seededLate() async throws {
    let forum = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo, pageNav: .new))
    let baseURL = try await forum.start()
    let directory = try TemporaryDirectory("awfulbot-late-rooms")
    try await using(directory, tearDown: { $0.remove() }) { directory in
      let transport = RecordingTransport(name: "late")
      transport.setAliases([Self.alertsAlias: Self.alertsID, Self.roomAlias: Self.roomID], resolving: false)
      let configuration = AppConfiguration(
        forum: .emulator(baseURL, requestSpacingSeconds: 0, announcementsForumID: nil),
        dataDirectory: directory.path, polling: .init(bookmarksSeconds: 60, privateMessagesSeconds: 1),
        transports: [.console(name: "late")],
        rooms: [
          .init(
            transport: "late", room: Self.roomAlias, subscriptions: [.thread(id: "3600001")],
            mode: .summary(threshold: 3))
        ],
        metrics: MetricsSettings(enabled: false),
        privateMessages: .init(rooms: [.init(transport: "late", room: Self.alertsAlias)]))
      let application = try BotApplication(configuration: configuration, transports: [transport], logger: .quiet())

      // At start the service cannot be reached: nothing is seeded, and the start does not fail.
      try await application.seedRooms()
      #expect(application.engine.privateMessageRooms.all.isEmpty)
      #expect(
        try await application.engine.subscriptions.subscriptions(room: RoomRef(transport: "late", room: Self.roomID))
          .isEmpty)
      #expect(try await !application.engine.polling.sources().contains(.privateMessages), "no PM room yet, no PM polls")

      let running = Task { try await application.run(signals: [], roomRetryDelay: .milliseconds(200)) }
      defer { running.cancel() }
      // Still down: tried again, with growing pauses, and still nothing.
      try await waitUntil("two more attempts", timeout: .seconds(10)) { transport.resolveAttempts >= 6 }
      #expect(application.engine.privateMessageRooms.all.isEmpty)

      // The service answers: the rooms are seeded by their ids, without a restart.
      transport.setResolving(true)
      let room = RoomRef(transport: "late", room: Self.roomID)
      try await waitUntil("the room's subscription", timeout: .seconds(30)) {
        !(try await application.engine.subscriptions.subscriptions(room: room).isEmpty)
      }
      let subscriptions = try await application.engine.subscriptions.subscriptions(room: room)
      #expect(subscriptions.map(\.target) == [.thread(id: "3600001")])
      // The seeding stores the room's subscriptions, then its mode: the mode may come a moment later.
      try await waitUntil("the room's mode", timeout: .seconds(10)) {
        if case .summary = try await application.engine.roomSettings.settings(room: room).mode { true } else { false }
      }
      try await waitUntil("the PM room", timeout: .seconds(30)) {
        application.engine.privateMessageRooms.all == [RoomRef(transport: "late", room: Self.alertsID)]
      }

      // A private message sent now is told in the alerts room, by its id. The first inbox poll only records what
      // is there, so wait until it has (the engine marks the inbox seeded) before sending.
      try await waitUntil("the first inbox poll recorded the inbox", timeout: .seconds(30)) {
        try await application.engine.polling.isInboxSeeded()
      }
      let message = try await forum.state.sendPrivateMessage(
        from: 1002, to: FakeForumSeed.botUserID, title: "Late but here", body: "Hello.")
      try await waitUntil("the alert", timeout: .seconds(30)) { !transport.sent(to: Self.alertsID).isEmpty }
      #expect(transport.sent(to: Self.alertsID).map(\.key) == ["late|\(Self.alertsID)|pm:\(message)"])
      #expect(transport.sent(to: Self.alertsAlias).isEmpty && transport.sent(to: Self.roomAlias).isEmpty)
      running.cancel()
      _ = try? await running.value
    }
    await forum.stop()
  }
}
