import BotStore
import ChatBridge
import Metrics

/// The engine's metrics, all prefixed `awfulbot_`. Handlers come from whatever `MetricsSystem` the app bootstrapped
/// (none in tests, where these are no-ops).
enum EngineMetrics {
  static func poll(source: String, outcome: String) {
    Counter(label: "awfulbot_polls_total", dimensions: [("source", kind(of: source)), ("outcome", outcome)])
      .increment()
  }

  /// How long one poll of a source took (a histogram per source kind).
  static func pollDuration(_ duration: Duration, source: String) {
    Timer(label: "awfulbot_poll_duration_seconds", dimensions: [("source", kind(of: source))])
      .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
  }

  static func forumRequests(_ count: Int, source: String) {
    Counter(label: "awfulbot_forum_requests_total", dimensions: [("source", kind(of: source))])
      .increment(by: count)
  }

  static func postsRelayed(_ count: Int) {
    guard count > 0 else { return }
    Counter(label: "awfulbot_posts_relayed_total").increment(by: count)
  }

  static func rowsQueued(_ count: Int, kind: OutboxKind) {
    guard count > 0 else { return }
    Counter(label: "awfulbot_outbox_queued_total", dimensions: [("kind", kind.rawValue)]).increment(by: count)
  }

  static func delivery(transport: String, outcome: String) {
    Counter(label: "awfulbot_deliveries_total", dimensions: [("transport", transport), ("outcome", outcome)])
      .increment()
  }

  /// A message the chat service accepted, by room and kind (`post`, `answer`, …): relays per room. `room` is a
  /// label from `MetricRoomLabels` (a configured room, or `other`), never a room or nick an outsider chose.
  static func roomDelivery(transport: String, room: String, kind: String) {
    Counter(
      label: "awfulbot_room_deliveries_total", dimensions: [("transport", transport), ("room", room), ("kind", kind)]
    ).increment()
  }

  static func deadLetter(transport: String) {
    Counter(label: "awfulbot_dead_letters_total", dimensions: [("transport", transport)]).increment()
  }

  static func outboxDepth(_ depth: Int, transport: String) {
    Gauge(label: "awfulbot_outbox_depth", dimensions: [("transport", transport)]).record(depth)
  }

  /// `forum:123` → `forum`, so metric cardinality does not grow with the forums watched.
  private static func kind(of source: String) -> String {
    source.split(separator: ":").first.map(String.init) ?? source
  }
}
