import BotCore
import Foundation
import Synchronization

/// `latency`'s last case (issue 35): many bookmarks, and the full sweep due again as soon as it ends, so one is
/// always in progress; a post every few seconds keeps the checks at the floor. What is measured is how long after
/// falling due each check starts (the poller takes a sweep page only when no check falls due within the request
/// spacing), and how long the posts made meanwhile take to reach chat.
struct SweepWaitRun {
  let bookmarks: Int
  let spacing: Double
  let duration: Double
  let postEvery: Double

  struct Result {
    var checks: [TimeInterval]
    var sweepPages: Int
    var checkPages: Int
    var latencies: [Duration?]
    var seedSeconds: Double
  }

  func run() async throws -> Result {
    let starts = Mutex<[TimeInterval]>([])
    let leg = try await LatencyLeg(
      label: "sweeping", bookmarks: bookmarks,
      polling: .init(bookmarksSeconds: 60, bookmarksFullSweepSeconds: 1), spacing: spacing,
      pollStarted: { source, late in
        if source == .bookmarks { starts.withLock { $0.append(late) } }
      })
    do {
      let seedStart = ContinuousClock.now
      try await leg.start()
      // Before the list is known whole, a post in a thread not read yet is taken as that thread's starting point.
      try await leg.waitForWholeList(within: .seconds(1200))
      let seedSeconds = (ContinuousClock.now - seedStart).seconds
      starts.withLock { $0 = [] }
      let start = ContinuousClock.now
      var random = BenchRandom(seed: 35)
      var made = 0
      while ContinuousClock.now < start + .seconds(duration) {
        made += 1
        try await leg.post(thread: Int(random.next() % UInt64(bookmarks)), text: "Sweep post \(made).")
        try await Task.sleep(until: start + .seconds(Double(made) * postEvery), clock: .continuous)
      }
      let pages = await leg.bookmarksPagesRequested()
      let checks = starts.withLock { $0 }
      try await leg.waitForRelays(within: .seconds(120))
      let latencies = leg.latencies().latencies
      await leg.stop()
      // A check reads from page 1 and stops at the first settled page: with a post every few seconds, page 1. The
      // sweep starts after the check's pages, so every other page is the sweep's.
      let checkPages = pages.filter { $0 == 1 }.count
      return Result(
        checks: checks, sweepPages: pages.count - checkPages, checkPages: checkPages, latencies: latencies,
        seedSeconds: seedSeconds)
    } catch {
      await leg.stop()
      throw error
    }
  }
}
