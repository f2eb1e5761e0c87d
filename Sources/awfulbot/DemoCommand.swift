import ArgumentParser
import AwfulBotApp

struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Runs the whole bot against the built-in forum emulator with a console chat (no accounts needed)."
  )

  @Option(help: "Stop after this many seconds (default: run until Ctrl-C or end of input plus the duration).")
  var duration: Double?

  @Option(help: "Data directory for the bot's database (default: a new temporary directory).")
  var data: String?

  @Option(help: "Speed factor for the activity generator (2 = twice as many posts).")
  var speed: Double = 1

  func run() async throws {
    // The console is the chat here: keep the log to warnings so relays and replies stay readable.
    LoggingSetup.bootstrap(level: .warning)
    try await runDemo(DemoOptions(duration: duration, dataDirectory: data, speed: speed))
  }
}
