import Foundation

/// What one leg of `latency` measured: each post's latency to its relay and the forum requests of the trace.
struct LatencyLegResult {
  var label: String
  var bookmarks: Int
  /// Per post in posting order; nil for a post never relayed.
  var latencies: [Duration?]
  var inOrder: Bool
  /// Requests during the trace (from its first moment to its last), by kind.
  var bookmarksPages: Int
  var threadPages: Int
  var requests: Int
  /// Messages that were not a post's relay (summary lines).
  var otherMessages: Int

  var relayed: Int { latencies.compactMap { $0 }.count }
  var summary: DurationSummary { DurationSummary(latencies.compactMap { $0 }) }

  static let header =
    "schedule                            median    p90       max       relayed  in order  requests  bookmarks pages  "
    + "thread pages"

  var row: String {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
    func seconds(_ duration: Duration) -> String { String(format: "%.1f s", duration.seconds) }
    let summary = summary
    return pad(label, 36) + pad(seconds(summary.median), 10) + pad(seconds(summary.percentile(90)), 10)
      + pad(seconds(summary.max), 10) + pad("\(relayed)/\(latencies.count)", 9) + pad(inOrder ? "yes" : "NO", 10)
      + pad("\(requests)", 10) + pad("\(bookmarksPages)", 17) + "\(threadPages)"
  }
}
