import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

/// "Your session is not verified": at most once an hour per room and user, whatever the session, and what is kept
/// of it stays bounded (issue 43).
@Suite("Matrix unverified-session notices")
struct MatrixUnverifiedSessionNoticeTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  /// `shouldTell` outside the `#expect` macro, which cannot call a mutating method.
  static func tell(_ notices: inout UnverifiedSessionNotices, user: String, in room: String, now: Date) -> Bool {
    notices.shouldTell(user: user, in: room, now: now)
  }

  @Test("once an hour per room and user; another room or user is told on its own")
  func oncePerHour() {
    var notices = UnverifiedSessionNotices()
    #expect(Self.tell(&notices, user: "@a:x", in: "!r", now: start))
    #expect(!Self.tell(&notices, user: "@a:x", in: "!r", now: start.addingTimeInterval(60)))
    #expect(!Self.tell(&notices, user: "@a:x", in: "!r", now: start.addingTimeInterval(3599)))
    #expect(Self.tell(&notices, user: "@b:x", in: "!r", now: start.addingTimeInterval(60)))
    #expect(Self.tell(&notices, user: "@a:x", in: "!other", now: start.addingTimeInterval(60)))
    #expect(Self.tell(&notices, user: "@a:x", in: "!r", now: start.addingTimeInterval(3600)))
  }

  @Test("entries older than the hour are dropped; at the cap nobody new is told until the oldest expires")
  func bounded() throws {
    var notices = UnverifiedSessionNotices()
    for index in 0..<UnverifiedSessionNotices.capacity {
      #expect(Self.tell(&notices, user: "@u\(index):x", in: "!r", now: start.addingTimeInterval(Double(index))))
    }
    #expect(!Self.tell(&notices, user: "@late:x", in: "!r", now: start.addingTimeInterval(1000)))
    #expect(notices.count == UnverifiedSessionNotices.capacity)
    // An hour after the first ones, those expire and make room.
    #expect(Self.tell(&notices, user: "@late:x", in: "!r", now: start.addingTimeInterval(3605)))
    #expect(notices.count == UnverifiedSessionNotices.capacity - 5)
    // Much later, only the last one is kept; stored, it is one small value.
    #expect(Self.tell(&notices, user: "@last:x", in: "!r", now: start.addingTimeInterval(10 * 3600)))
    #expect(notices.count == 1)
    let stored = try JSONEncoder().encode(notices)
    #expect(try JSONDecoder().decode(UnverifiedSessionNotices.self, from: stored) == notices)
  }

  @Test(
    "the rows older builds kept per device are removed at start; the rest of the state stays",
    .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason))
  func legacyRowsRemoved() async throws {
    let account = try await MatrixHuman.register("bot")
    let legacy = [
      "untrusted-device-notice:!a:localhost|@x:localhost|DEV1": "$event1",
      "untrusted-device-notice:!b:localhost|@y:localhost|DEV2": "pending",
    ]
    let store = InMemoryTransportStateStore(legacy.merging(["encryption-notice:!a:localhost": "$kept"]) { a, _ in a })
    let transport = MatrixTransport(
      configuration: MatrixTransportConfiguration(
        homeserver: SynapseEnvironment.url!, userID: account.userID, password: account.password,
        syncTimeoutSeconds: 1),
      stateStore: store, logger: .quiet())
    try await withRunningServices([transport]) {
      try await waitUntil("the transport connected", timeout: .seconds(60), every: .milliseconds(50)) {
        if case .connected = transport.status { return true }
        return false
      }
    }
    let kept = store.snapshot
    #expect(legacy.keys.allSatisfy { kept[$0] == nil }, "\(kept.keys.sorted())")
    #expect(kept["encryption-notice:!a:localhost"] == "$kept")
  }

  @Test(
    "two unverified sessions of one person in one room: one notice",
    .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason),
    .enabled(if: MatrixE2EEHuman.isAvailable, MatrixE2EEHuman.skipReason))
  func oneNoticeForTwoSessions() async throws {
    try await LiveMatrixTransport.with(encrypts: true) { bot in
      let alice = try await MatrixE2EEHuman.register("alice")
      let laptop = try await MatrixE2EEHuman.anotherDevice(of: alice.account, crossSign: false)
      let phone = try await MatrixE2EEHuman.anotherDevice(of: alice.account, crossSign: false)
      var failure: (any Error)?
      do { try await Self.twoSessions(bot: bot, alice: alice, laptop: laptop, phone: phone) } catch { failure = error }
      for human in [alice, laptop, phone] { await human.quit() }
      if let failure { throw failure }
    }
  }

  private static func twoSessions(
    bot: LiveMatrixTransport, alice: MatrixE2EEHuman, laptop: MatrixE2EEHuman, phone: MatrixE2EEHuman
  ) async throws {
    let room = try await alice.createEncryptedRoom(name: "sessions", invite: [bot.userID])
    try await bot.waitUntilJoined(room)
    try await laptop.join(room)
    try await phone.join(room)
    let first = try await laptop.say("!help", in: room)
    let told = try await alice.messages(in: room, from: bot.userID, containing: "is not verified")
    #expect(told.contains { $0.replyTo == first }, "the first session is told")
    _ = try await phone.say("!help", in: room)
    _ = try await laptop.say("!help", in: room)
    // The transport handles a room's events in order: once alice's line is handed on, both were refused.
    let barrier = try await alice.say("barrier", in: room)
    _ = try await bot.message(withID: barrier)
    let seen = try await alice.messages(in: room, from: bot.userID, count: 3, timeout: 5)
    let notices = seen.filter { $0.body?.contains("is not verified") == true }
    #expect(notices.count == 1, "told once: \(notices.compactMap(\.body))")
  }
}
