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
}
