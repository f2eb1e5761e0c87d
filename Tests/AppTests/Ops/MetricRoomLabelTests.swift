import AwfulBotApp
import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import Foundation
import Testing

/// Metrics name only the rooms the config names; every other room, and every IRC nick that spoke to the bot, is
/// `other`, so strangers cannot add series without bound (issue 43).
@Suite("ops: metric room labels")
struct MetricRoomLabelTests {
  @Test("a relay to a stranger's room (an IRC nick's query) is counted under other; a configured room by its name")
  func deliveries() async throws {
    AppMetrics.bootstrap()
    // A transport name of this test's own: the registry is the process's, shared with tests running alongside.
    let transport = RecordingTransport(name: "irc-labels-\(UUID().uuidString.prefix(8))")
    let configured = RoomRef(transport: transport.name, room: "#goons")
    let stranger = RoomRef(transport: transport.name, room: "mallory\(UUID().uuidString.prefix(6))")
    let forum = TestForum()
    let engine = BotEngine(
      database: try BotDatabase(), forum: forum, transports: [transport.name: transport.capabilities])
    engine.metricRoomLabels.follow { [configured] }
    let dispatcher = Dispatcher(engine: engine, transport: transport)
    _ = forum.addThread("1", posts: 1)
    for room in [configured, stranger] { try await engine.subscriptions.watch(threadID: "1", room: room) }
    await engine.polling.poll(.bookmarks)
    _ = forum.addPost(to: "1", author: "user", text: "news")
    await engine.polling.poll(.bookmarks)
    await dispatcher.drain()
    #expect(transport.sent(to: stranger.room).count == 1, "the stranger's room got its relay")

    let exposition = AppMetrics.exposition()
    func delivered(_ room: String) -> Double? {
      OpsHTTP.value(
        in: exposition, "awfulbot_room_deliveries_total", ["transport": transport.name, "room": room, "kind": "post"])
    }
    #expect(delivered(configured.room) == 1)
    #expect(delivered(MetricRoomLabels.other) == 1)
    #expect(!exposition.contains(stranger.room), "no series names the stranger")
  }

  @Test("the per-room outbox gauge adds up the other rooms under one label")
  func outboxGauge() {
    AppMetrics.bootstrap()
    let transport = "irc-gauge-\(UUID().uuidString.prefix(8))"
    let labels = MetricRoomLabels(named: { [RoomRef(transport: transport, room: "#goons")] })
    let reported = AppMetrics.outbox(
      depthByRoom: [(transport, "#goons", 2), (transport, "alice", 3), (transport, "bob", 4)], deadLetters: 0,
      label: labels.label)
    let exposition = AppMetrics.exposition()
    func depth(_ room: String) -> Double? {
      OpsHTTP.value(in: exposition, "awfulbot_outbox_room_depth", ["transport": transport, "room": room])
    }
    #expect(depth("#goons") == 2)
    #expect(depth(MetricRoomLabels.other) == 7)
    #expect(depth("alice") == nil && depth("bob") == nil)
    #expect(reported.count == 2)
  }
}
