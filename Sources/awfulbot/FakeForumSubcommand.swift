import ArgumentParser
import AwfulBotApp

struct FakeForumSubcommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fake-forum",
    abstract: "Runs the forum emulator on 127.0.0.1 (admin API under /_fake/, see docs/fake-forum.md).")

  @Option(help: "Port to listen on (0 picks a free one).")
  var port: Int = 8080

  @Option(help: "Initial content: demo or empty.")
  var seed: String = "demo"

  @Option(help: "Page navigation markup: old (<select>) or new (data attributes).")
  var pageNav: String = "new"

  func run() async throws {
    do {
      try await runFakeForum(port: port, seed: seed, pageNav: pageNav)
    } catch let error as FakeForumCommandError {
      throw ValidationError(error.description)
    }
  }
}
