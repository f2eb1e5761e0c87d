import Foundation

/// The activity `latency` replays: posts at random moments over the trace (so they bunch up and thin out as real
/// activity does), exactly half of them in the thread of the post before (a conversation), the others in a thread
/// drawn from all the bookmarks (mostly old ones, deep in the list, as on a real account).
struct LatencyTrace {
  struct Event {
    /// Seconds from the start of the trace.
    var offset: Double
    /// Index into the bookmarked threads.
    var thread: Int
    /// Whether the post is in the thread of the post before.
    var followsUp: Bool
  }

  var events: [Event]
  var duration: Double

  init(posts: Int, duration: Double, threads: Int, seed: UInt64) {
    var random = BenchRandom(seed: seed)
    let offsets = (0..<posts).map { _ in Double.random(in: 0..<duration, using: &random) }.sorted()
    // Exactly half (rounded down) follow up the post before; the first post cannot.
    let followUps = Set(Array(1..<max(posts, 1)).shuffled(using: &random).prefix(posts / 2))
    var events: [Event] = []
    for (index, offset) in offsets.enumerated() {
      let followsUp = followUps.contains(index)
      let thread = followsUp ? events[index - 1].thread : Int.random(in: 0..<threads, using: &random)
      events.append(Event(offset: offset, thread: thread, followsUp: followsUp))
    }
    self.events = events
    self.duration = duration
  }

  /// "40 posts over 300 s in 23 threads, gaps 0.1–31.2 s (median 5.0 s)".
  var summary: String {
    let gaps = zip(events.dropFirst(), events).map { $0.offset - $1.offset }.sorted()
    let threads = Set(events.map(\.thread)).count
    let gapText =
      gaps.isEmpty
      ? ""
      : String(
        format: ", gaps %.1f–%.1f s (median %.1f s)", gaps.first ?? 0, gaps.last ?? 0, gaps[gaps.count / 2])
    return "\(events.count) posts over \(Int(duration)) s in \(threads) threads\(gapText)"
  }
}
