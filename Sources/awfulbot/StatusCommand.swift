import ArgumentParser
import AwfulBotApp
import Foundation

struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Shows the bot's state from its database (works while it runs): login, sources, outbox, transports.",
    discussion: "Exit status 0 all well, 1 something needs attention (an error, dead letters, daemon not running).")

  @OptionGroup var location: DatabaseLocation

  @Flag(help: "Print the report as JSON.")
  var json = false

  func run() throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, configuration) = try location.resolve(tolerant: true)
    let report: StatusReport
    do {
      report = try StatusReport.read(
        databasePath: path, transportNames: configuration?.transports.map(\.resolvedName) ?? [])
    } catch {
      FileHandle.standardError.write(Data("awfulbot status: \(error)\n".utf8))
      throw ExitCode.failure
    }
    if json {
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
      print(report.text())
    }
    if report.needsAttention { throw ExitCode.failure }
  }
}
