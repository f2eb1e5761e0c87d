import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// The adaptive schedule (issue 28): the floor after a read that found something, doubling while quiet up to the
/// ceiling, the ceiling while the list is out of order, and `status` saying which and why.
@Suite("poll pace")
struct EnginePollPaceTests {
  @Test("the pace doubles from the floor while quiet, stops at the ceiling, and goes back to the floor on a change")
  func paceSequence() {
    var pace: PollPace?
    var seconds: [Double] = []
    for found in [true, false, false, false, false, true, false] {
      pace = PollPace.after(pace, found: found, unordered: false, floor: .seconds(10), ceiling: .seconds(60))
      seconds.append(pace?.seconds ?? 0)
    }
    #expect(seconds == [10, 20, 40, 60, 60, 10, 20])
    #expect(pace?.reason == .quiet && pace?.quietReads == 1)

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
    var health = try await harness.engine.health().sources.first { $0.source == "bookmarks" }
    #expect(health?.paceExplanation == "every 10 s: threads moved at the last check")

    var quiet: [Double] = []
    for _ in 1...4 {
      harness.clock.advance(by: 10)
      quiet.append(await harness.cycle().pace?.seconds ?? 0)
    }
    #expect(quiet == [20, 40, 60, 60])
    health = try await harness.engine.health().sources.first { $0.source == "bookmarks" }
    #expect(health?.paceExplanation == "every 1 min: nothing new in 4 checks, the longest wait")
    let status = try await harness.engine.status(room: harness.room)
    #expect(status.sources.first { $0.source == "bookmarks" }?.pace?.seconds == 60)

    let oneQuiet = PollPace.after(nil, found: false, unordered: false, floor: .seconds(10), ceiling: .seconds(60))
    #expect(oneQuiet.explanation(for: .bookmarks) == "every 20 s: nothing new in 1 check; the wait doubles up to 1 min")
  }

  @Test("announcements and the inbox keep their one interval")
  func unpacedSources() async throws {
    let harness = try EngineHarness { $0.announcementsInterval = .seconds(1800) }
    try await harness.engine.subscribe(room: harness.room, to: .announcements)
    harness.forum.addAnnouncement(title: "Rules", body: "Be nice.")
    let report = await harness.engine.poll(.announcements)
    #expect(report.pace?.seconds == 1800 && report.pace?.reason == .fixed)
    #expect(report.pace?.explanation(for: .announcements) == "every 30 min")
  }
}
