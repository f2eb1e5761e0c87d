import ForumModel

/// Options of `awfulbot demo`.
package struct DemoOptions: Sendable {
  /// Seconds to run; nil runs until Ctrl-C.
  package var duration: Double?
  /// Where the bot keeps its database; nil makes a temporary directory.
  package var dataDirectory: String?
  /// Activity factor: 2 makes the emulated forum post twice as often.
  package var speed: Double

  package init(duration: Double? = nil, dataDirectory: String? = nil, speed: Double = 1) {
    self.duration = duration
    self.dataDirectory = dataDirectory
    self.speed = speed
  }

  /// `speed` as the demo uses it: at least 0.1 (NaN is 1), so the generator's interval (`8 / speed`) is finite.
  var effectiveSpeed: Double { speed.isNaN ? 1 : max(speed, 0.1) }

  /// `duration` as the time to run, clamped (`--duration 1e300` or `inf` would trap in a conversion to Duration).
  var shutdownAfter: Duration? { duration.map { Clamp.seconds($0, atMost: .infinity) } }
}
