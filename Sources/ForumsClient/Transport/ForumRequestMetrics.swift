import ForumModel
import Metrics

/// Counts every HTTP exchange with the forum by outcome (`awfulbot_forum_http_requests_total`), so an operator sees
/// the forum failing (5xx, unreachable) apart from the bot failing. No-ops until the app bootstraps a metrics backend.
enum ForumRequestMetrics {
  static func record(status: Int) {
    let outcome =
      switch status {
      case 200..<400: "ok"
      case 400..<500: "client_error"
      default: "server_error"
      }
    count(outcome)
  }

  static func recordFailure() { count("failed") }

  /// `awfulbot_forum_wall{kind}`: 1 for the wall in front of the forum now (see `ForumWall`), 0 for the others.
  static func wall(_ current: ForumWall.Kind?) {
    for kind in ForumWall.Kind.allCases {
      Gauge(label: "awfulbot_forum_wall", dimensions: [("kind", kind.rawValue)]).record(kind == current ? 1 : 0)
    }
  }

  private static func count(_ outcome: String) {
    Counter(label: "awfulbot_forum_http_requests_total", dimensions: [("outcome", outcome)]).increment()
  }
}
