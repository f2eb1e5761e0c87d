import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// The adaptive schedule (issues 28 and 35): the floor after a read that found something, twice the floor for five
/// minutes after it, then doubling while quiet up to the ceiling, the ceiling while the list is out of order, and
/// `status` saying which and why.
@Suite("poll pace")
struct EnginePollPaceTests {
  @Test("the pace is twice the floor for 5 minutes after a change, then doubles to the ceiling; a change resets it")
  func paceSequence() {
    var pace: PollPace?
    var seconds: [Double] = []
    var reasons: [PollPace.Reason] = []
    for found in [true] + Array(repeating: false, count: 18) + [true, false] {
      pace = PollPace.after(pace, found: found, unordered: false, floor: .seconds(10), ceiling: .seconds(60))
      seconds.append(pace?.seconds ?? 0)
      reasons.append(pace?.reason ?? .fixed)
    }
    // Quiet for 10 s + 14 × 20 s = 290 s after the change: still twice the floor; the next wait passes 5 minutes.
    #expect(seconds == [10] + Array(repeating: 20, count: 15) + [40, 60, 60, 10, 20])
    #expect(reasons[1...15].allSatisfy { $0 == .recent } && reasons[16] == .quiet && reasons[17] == .ceiling)
    #expect(pace?.reason == .recent && pace?.quietReads == 1)

    let unordered = PollPace.after(pace, found: true, unordered: true, floor: .seconds(10), ceiling: .seconds(60))
    #expect(unordered.seconds == 60 && unordered.reason == .unordered)
    // Back in order and quiet: from the floor again, not from the ceiling the unordered reads kept.
    let back = PollPace.after(unordered, found: false, unordered: false, floor: .seconds(10), ceiling: .seconds(60))
    #expect(back.seconds == 20)
    // A floor at or above the ceiling is one interval.
    let fixed = PollPace.after(nil, found: true, unordered: false, floor: .seconds(10), ceiling: .seconds(5))
    #expect(fixed.seconds == 5 && fixed.reason == .fixed)
  }

  @Test("the bookmarks pace follows what moved, and status shows the interval and why")
  func bookmarksPaceInStatus() async throws {
    let harness = try EngineHarness()
    for index in 1...3 {
      harness.forum.addThread("\(index)", posts: 1)
      harness.clock.advance(by: 60)
    }
    await harness.cycle()
    harness.forum.addPost(to: "2", author: "poster")
    let busy = await harness.cycle()
    #expect(busy.pace?.seconds == 10 && busy.pace?.reason == .activity)
    #expect(busy.nextAttempt == harness.clock.now().addingTimeInterval(10))
    var health = try await harness.engine.statusReports.health().sources.first { $0.source == "bookmarks" }
    #expect(health?.paceExplanation == "every 10 s: threads moved at the last check")

    var quiet: [Double] = []
    for _ in 1...4 {
      harness.clock.advance(by: 10)
      quiet.append(await harness.cycle().pace?.seconds ?? 0)
    }
    #expect(quiet == [20, 20, 20, 20])
    health = try await harness.engine.statusReports.health().sources.first { $0.source == "bookmarks" }
    #expect(
      health?.paceExplanation
        == "every 20 s: nothing new in 4 checks; after 5 min without news the wait doubles up to 1 min")
    quiet = []
    for _ in 5...18 {
      harness.clock.advance(by: 20)
      quiet.append(await harness.cycle().pace?.seconds ?? 0)
    }
    #expect(quiet == Array(repeating: 20, count: 11) + [40, 60, 60])
    health = try await harness.engine.statusReports.health().sources.first { $0.source == "bookmarks" }
    #expect(health?.paceExplanation == "every 1 min: nothing new in 18 checks, the longest wait")
    let status = try await harness.engine.statusReports.status(room: harness.room)
    #expect(status.sources.first { $0.source == "bookmarks" }?.pace?.seconds == 60)

    let oneQuiet = PollPace.after(nil, found: false, unordered: false, floor: .seconds(10), ceiling: .seconds(60))
    #expect(
      oneQuiet.explanation(for: .bookmarks)
        == "every 20 s: nothing new in 1 check; after 5 min without news the wait doubles up to 1 min")
    let longQuiet = PollPace(seconds: 40, reason: .quiet, quietReads: 16, ceilingSeconds: 60, quietSeconds: 310)
    #expect(
      longQuiet.explanation(for: .bookmarks) == "every 40 s: nothing new in 16 checks; the wait doubles up to 1 min")
  }

  @Test("announcements and the inbox keep their one interval")
  func unpacedSources() async throws {
    let harness = try EngineHarness { $0.announcementsInterval = .seconds(1800) }
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .announcements)
    harness.forum.addAnnouncement(title: "Rules", body: "Be nice.")
    let report = await harness.engine.polling.poll(.announcements)
    #expect(report.pace?.seconds == 1800 && report.pace?.reason == .fixed)
    #expect(report.pace?.explanation(for: .announcements) == "every 30 min")
  }
}
