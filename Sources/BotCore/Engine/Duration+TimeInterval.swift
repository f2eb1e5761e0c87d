import ChatBridge
import Foundation

extension Duration {
  /// Seconds as a `TimeInterval`, for `Date` arithmetic.
  var timeInterval: TimeInterval {
    let parts = components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
  }
}
