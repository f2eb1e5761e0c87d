import BotCore
import Foundation
import Metrics
import Prometheus

/// The process's Prometheus registry. swift-metrics allows one bootstrap per process, so the first use of
/// `registry` bootstraps it and every later use (the executable, each test) shares the same registry.
package enum AppMetrics {
  package static let registry: PrometheusCollectorRegistry = {
    let registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    // Polls take from tens of milliseconds (one bookmarks page) to minutes (a first full fetch).
    factory.defaultDurationHistogramBuckets = [
      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2),
      .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(300),
    ]
    MetricsSystem.bootstrap(factory)
    return registry
  }()

  /// Bootstraps swift-metrics with the registry (idempotent).
  package static func bootstrap() { _ = registry }

  /// The exposition text `/metrics` serves.
  package static func exposition() -> String { registry.emitToString() }

  /// Whether the forum session is there (1) or not (0).
  static func forumLoggedIn(_ loggedIn: Bool) {
    Gauge(label: "awfulbot_forum_logged_in").record(loggedIn ? 1 : 0)
  }

  /// Whether a transport is connected (1) or not (0).
  static func transportConnected(_ connected: Bool, transport: String) {
    Gauge(label: "awfulbot_transport_connected", dimensions: [("transport", transport)]).record(connected ? 1 : 0)
  }

  /// Whether the database's disk is full (1: writes fail with SQLITE_FULL, nothing new is saved) or has room (0).
  static func storageFull(_ full: Bool) {
    Gauge(label: "awfulbot_storage_full").record(full ? 1 : 0)
  }

  /// A transport came back after being disconnected.
  static func transportReconnected(transport: String, times: Int = 1) {
    Counter(label: "awfulbot_transport_reconnects_total", dimensions: [("transport", transport)]).increment(by: times)
  }

  /// Rows waiting per room and in total, rows dead-lettered (current counts from the database). A room's label is
  /// `label`'s answer (`MetricRoomLabels`: a configured room, or `other` for all the rest together), so no outsider
  /// adds a series. The database lists only rooms with rows waiting, so a label in `reportedBefore` (what the
  /// previous call returned) and missing now is set to 0 (its queue emptied), not left at its last count. Returns the
  /// labels reported now.
  @discardableResult
  package static func outbox(
    depthByRoom: [(transport: String, room: String, depth: Int)], deadLetters: Int,
    reportedBefore: Set<OutboxRoom> = [],
    label: (_ transport: String, _ room: String) -> String = { _, _ in MetricRoomLabels.other }
  ) -> Set<OutboxRoom> {
    var depths: [OutboxRoom: Int] = [:]
    for row in depthByRoom {
      depths[OutboxRoom(transport: row.transport, room: label(row.transport, row.room)), default: 0] += row.depth
    }
    let current = Set(depths.keys)
    for (room, depth) in depths { roomDepth(room).record(depth) }
    for room in reportedBefore.subtracting(current) { roomDepth(room).record(0) }
    Gauge(label: "awfulbot_outbox_dead_letters").record(deadLetters)
    return current
  }

  /// A room of the per-room outbox gauge.
  package struct OutboxRoom: Hashable, Sendable {
    var transport: String
    var room: String
  }

  private static func roomDepth(_ room: OutboxRoom) -> Metrics.Gauge {
    Gauge(label: "awfulbot_outbox_room_depth", dimensions: [("transport", room.transport), ("room", room.room)])
  }

  /// The process's resident memory in bytes (`/proc/self/statm`), when the system says.
  static func residentMemory() {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return }
    Gauge(label: "awfulbot_process_resident_memory_bytes").record(pages * Int(sysconf(Int32(_SC_PAGESIZE))))
  }

  /// Constant 1 with the version as a label, the usual way to expose what is running.
  static func buildInfo(version: String) {
    Gauge(label: "awfulbot_build_info", dimensions: [("version", version)]).record(1)
  }
}
