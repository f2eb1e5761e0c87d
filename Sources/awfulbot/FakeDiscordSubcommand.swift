import ArgumentParser
import FakeDiscord
import Foundation

/// The Discord webhook receiver as a process, for the crash proof (`scripts/crash-matrix --discord`): it outlives
/// every kill of the bot, so it counts what reached "Discord".
struct FakeDiscordSubcommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fake-discord",
    abstract:
      "Runs a Discord webhook receiver on 127.0.0.1 (admin API: POST /_fake/webhooks, GET /_fake/messages, POST /_fake/fault).",
    shouldDisplay: false)

  @Option(help: "Port to listen on (0 picks a free one).")
  var port: Int = 8090

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("Port \(port) is out of range (0…65535).") }
  }

  func run() async throws {
    let server = FakeDiscordServer(port: port)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      let url = try await server.waitForBaseURL()
      // Written at once, not buffered: a script waits for this line to learn the port.
      FileHandle.standardOutput.write(
        Data("FakeDiscord listening on \(url); make a webhook with POST \(url)/_fake/webhooks.\n".utf8))
      try await group.waitForAll()
    }
  }
}
