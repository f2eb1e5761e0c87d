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

  private static func count(_ outcome: String) {
    Counter(label: "awfulbot_forum_http_requests_total", dimensions: [("outcome", outcome)]).increment()
  }
}
