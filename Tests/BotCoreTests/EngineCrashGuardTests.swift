import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import Synchronization
import Testing

@testable import BotCore

/// The outbox's poison-message guard (issue 43): a death with a row in hand is counted at the next start, the second
/// parks the row, the rest of the room goes on, and nothing else is parked with it. A "death" here is a dispatcher
/// whose send never returns and is never cancelled (its marks stay as a dead process leaves them), then a new engine
/// over the same database file: what a restart sees.
@Suite("Engine crash guard")
struct EngineCrashGuardTests {
  /// A chat service that notes, at each send, which outbox rows are marked in flight in the store.
  final class InFlightProbe: ChatTransport, Sendable {
    let name = "test"
    let capabilities = ChatCapabilities.plainText
    let events = AsyncStream<ChatEvent> { $0.finish() }
    let database: Mutex<BotDatabase?> = Mutex(nil)
    /// Per send, in order: its idempotency key and the ids marked in flight while it was being sent.
    let seen = Mutex<[(key: String, inFlight: [Int64])]>([])
    /// The send of this key never returns: the process "dies" in it. Its key is told on `hung`.
    let hangOn = Mutex<String?>(nil)
    let hung: AsyncStream<String>
    private let hungSignal: AsyncStream<String>.Continuation

    init() { (hung, hungSignal) = AsyncStream.makeStream() }

    func run() async throws {}

    func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
      if let database = database.withLock({ $0 }) {
        let ids = try await database.read { tx in try tx.rowsInFlight().compactMap(\.id) }
        seen.withLock { $0.append((idempotencyKey, ids)) }
      }
      if hangOn.withLock({ $0 }) == idempotencyKey {
        hungSignal.yield(idempotencyKey)
        try await Task.sleep(for: .seconds(3600))
      }
      return DeliveryReceipt(id: "receipt-\(idempotencyKey)")
    }
  }

  /// Queues "message 1…count" for each room (thread 1, watched by every room).
  private func queue(_ h: EngineHarness, rooms: [RoomRef], count: Int = 3) async throws {
    h.forum.addThread("1", posts: 1)
    for room in rooms { try await h.engine.subscriptions.watch(threadID: "1", room: room) }
    await h.engine.polling.poll(.bookmarks)
    for n in 1...count { h.forum.addPost(to: "1", author: "user", text: "message \(n).") }
    await h.engine.polling.poll(.bookmarks)
  }

  /// Starts a pass whose first send never returns (the process "dies" in it) and returns once that send began, with
  /// the pass's task (left running: cancelling it would be a clean shutdown, not a death).
  private func dieInFirstSend(_ h: EngineHarness) async throws -> (task: Task<DrainReport, Never>, key: String) {
    h.transport.setHangs(true)
    let drain = Task { await h.dispatcher.drain() }
    var sends = h.transport.sends.makeAsyncIterator()
    let first = try #require(await sends.next())
    return (drain, first.key)
  }

  @Test("a row that stops the bot twice is parked with the reason; the room's later rows go out, and status says so")
  func secondDeathParks() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    func start(_ transport: RecordingTransport = RecordingTransport()) throws -> EngineHarness {
      try EngineHarness(database: try BotDatabase(path: path), clock: clock, forum: forum, transport: transport)
    }

    let first = try start()
    try await queue(first, rooms: [first.room])
    let poison = try #require(try await first.rows().first)
    let firstDeath = try await dieInFirstSend(first)
    defer { firstDeath.task.cancel() }
    #expect(firstDeath.key == poison.idempotencyKey)
    let marked = try #require(try await first.database.read { tx in try tx.outboxRow(id: poison.id!) })
    #expect(marked.inFlightSince != nil, "the mark is committed before the transport has the row")

    // Restart: one death counted, the row goes out again, and the process dies in it again.
    let second = try start()
    let secondDeath = try await dieInFirstSend(second)
    defer { secondDeath.task.cancel() }
    #expect(secondDeath.key == poison.idempotencyKey)
    let again = try #require(try await second.database.read { tx in try tx.outboxRow(id: poison.id!) })
    #expect(again.crashes == 1 && again.state == .pending && again.inFlightSince != nil)

    // Restart: the second death parks it; the rest of the room is relayed in order.
    let third = try start()
    let report = await third.dispatcher.drain()
    #expect(report.delivered == 2)
    #expect(third.texts().map { $0.contains("message 2.") } == [true, false])
    #expect(third.texts().last?.contains("message 3.") == true)
    #expect(third.transport.sent.allSatisfy { $0.key != poison.idempotencyKey }, "the parked row is not sent")
    let parked = try #require(try await third.database.read { tx in try tx.outboxRow(id: poison.id!) })
    #expect(parked.state == .parked)
    #expect(parked.crashes == 2)
    #expect(parked.lastError == "not sent: it stopped the bot twice")
    #expect(try await third.rows().filter { $0.id != poison.id }.allSatisfy { $0.state == .delivered })

    let status = try await third.engine.statusReports.status(room: third.room)
    #expect(status.parked == 1)
    let post = try #require(poison.postID)
    #expect(status.parkedRows == ["row \(poison.id!), post \(post)"])
    let health = try await third.engine.statusReports.health()
    #expect(health.parked == 1 && !health.isHealthy)
    #expect(
      health.parkedSentence == "1 message not sent: it stopped the bot twice (row \(poison.id!), room test !room, "
        + "post \(post))")
    // A fourth start counts nothing more: nothing was in flight.
    let fourth = try start()
    await fourth.dispatcher.drain()
    #expect(try await fourth.rows().first { $0.id == poison.id }?.crashes == 2)
  }

  @Test("a row in flight beside the one that stops the bot is sent again alone and delivered, never parked")
  func bystanderIsNotParked() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let probe = InFlightProbe()
    func start(_ transport: RecordingTransport) throws -> EngineHarness {
      let h = try EngineHarness(database: try BotDatabase(path: path), clock: clock, forum: forum, transport: transport)
      probe.database.withLock { $0 = h.database }
      return h
    }
    let other = RoomRef(transport: "test", room: "!other")
    let setUp = try start(RecordingTransport())
    try await queue(setUp, rooms: [setUp.room, other])
    let rows = try await setUp.rows()
    let poison = try #require(rows.first { $0.room == setUp.room.room })
    let bystander = try #require(rows.first { $0.room == other.room })
    // Both rooms' heads were in hand when the process died (as two rooms send side by side).
    _ = try await setUp.database.write { tx in try tx.markInFlight(ids: [poison.id!, bystander.id!], at: clock.now()) }

    // Restart: both counted one death. Each goes alone; the poison row stops the process again.
    let second = try start(RecordingTransport(forwardingTo: probe))
    probe.hangOn.withLock { $0 = poison.idempotencyKey }
    let death = Task { await second.dispatcher.drain() }
    defer { death.cancel() }
    var hung = probe.hung.makeAsyncIterator()
    #expect(await hung.next() == poison.idempotencyKey)
    probe.hangOn.withLock { $0 = nil }

    // Restart: the poison row is parked, the bystander (one death, never alone when it happened) is delivered. The
    // sends of the second start stay in `seen`: how many rows that start got out before the poison hung depends on
    // timing, and every one of them must have been marked (and a suspect alone) all the same.
    let third = try start(RecordingTransport(forwardingTo: probe))
    await third.dispatcher.drain()
    let after = try await third.rows()
    #expect(after.first { $0.id == poison.id }?.state == .parked)
    let delivered = try #require(after.first { $0.id == bystander.id })
    #expect(delivered.state == .delivered && delivered.crashes <= 1)
    #expect(after.filter { $0.id != poison.id }.allSatisfy { $0.state == .delivered })
    #expect(third.texts().count == 2)

    // Every send of both starts had its own row marked in flight; a row that died before had no other beside it.
    let seen = probe.seen.withLock { $0 }
    let byKey = Dictionary(uniqueKeysWithValues: after.map { ($0.idempotencyKey, $0) })
    #expect(seen.count >= 4)
    for send in seen {
      let row = try #require(byKey[send.key])
      #expect(send.inFlight.contains(row.id!), "row \(row.id!) marked before its send")
      if row.crashes > 0 { #expect(send.inFlight == [row.id!], "a row that died before goes alone") }
    }
    #expect(try await third.database.read { tx in try tx.rowsInFlight() }.isEmpty)
  }

  @Test("a send cancelled by shutdown (or hanging until shutdown cancels it) is no death: the mark is cleared")
  func cancelledSendIsNoDeath() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let first = try EngineHarness(
      database: try BotDatabase(path: path), clock: clock, forum: forum, transport: RecordingTransport())
    try await queue(first, rooms: [first.room])
    let hung = try await dieInFirstSend(first)
    hung.task.cancel()
    _ = await hung.task.value
    #expect(try await first.database.read { tx in try tx.rowsInFlight() }.isEmpty)
    try first.database.close()

    let second = try EngineHarness(
      database: try BotDatabase(path: path), clock: clock, forum: forum, transport: RecordingTransport())
    await second.dispatcher.drain()
    let rows = try await second.rows()
    #expect(rows.allSatisfy { $0.state == .delivered && $0.crashes == 0 })
    #expect(second.transport.sent.first?.key == hung.key, "sent again under the same key")
  }

  @Test("!status tells the room its parked messages with a count and a sentence; another room's are not named")
  func chatStatusNamesParkedRows() async throws {
    let bot = try await CommandHarness()
    let now = bot.clock.now()
    let id = try await bot.engine.database.write { tx throws -> Int64 in
      var row = OutboxRecord(
        transport: CommandHarness.transport, room: "!room", kind: .post, payload: "{}", idempotencyKey: "poison",
        createdAt: now, postID: "4001")
      try tx.enqueue(&row)
      for _ in 0..<OutboxRecord.crashLimit {
        try tx.markInFlight(ids: [row.id!], at: now)
        _ = try tx.recoverInterruptedSends(at: now)
      }
      return row.id!
    }
    let status = await bot.say("!status")
    #expect(status.contains("1 message not sent: it stopped the bot twice (row \(id), post 4001)."), "\(status)")
    let elsewhere = await bot.say("!status", room: "!other")
    #expect(!elsewhere.contains("not sent"), "\(elsewhere)")
  }
}
