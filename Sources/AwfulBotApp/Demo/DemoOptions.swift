/// Options of `awfulbot demo`.
package struct DemoOptions: Sendable {
  package var duration: Double?
  package var dataDirectory: String?
  package var speed: Double

  package init(duration: Double? = nil, dataDirectory: String? = nil, speed: Double = 1) {
    self.duration = duration
    self.dataDirectory = dataDirectory
    self.speed = speed
  }
}

/// Runs the demo: emulator, bot, console chat, activity generator. (Wired once the engine lands.)
package func runDemo(_ options: DemoOptions) async throws {
  print("demo: not wired yet")
}
