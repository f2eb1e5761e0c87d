/// A transport that can say whether it is connected, for `/readyz`, `status` and the reconnect count.
/// Transports that do not conform are taken as connected while they run.
package protocol ConnectionStateReporting: Sendable {
  /// nil when connected and usable; otherwise why not (`connecting`, `reconnecting (timeout)`).
  func connectionProblem() async -> String?
}
