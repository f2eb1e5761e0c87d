import ArgumentParser
import AwfulBotApp
import Foundation

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Writes rooms, subscriptions, filters, alerts and thread cursors as JSON, for moving to another host.",
    discussion: "Reads the database read-only (fine while the bot runs). Messages still in the outbox are not included."
  )

  @OptionGroup var location: DatabaseLocation

  @Option(name: .shortAndLong, help: "Write to this file (mode 0600) instead of standard output.")
  var output: String?

  func run() throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, _) = try location.resolve()
    let document: ExportDocument
    do {
      document = try DataTransfer.export(databasePath: path)
    } catch {
      FileHandle.standardError.write(Data("awfulbot export: \(error)\n".utf8))
      throw ExitCode.failure
    }
    let data = try document.encoded() + Data("\n".utf8)
    if let output {
      guard FileManager.default.createFile(atPath: output, contents: data, attributes: [.posixPermissions: 0o600])
      else { throw ValidationError("cannot write \(output)") }
      FileHandle.standardError.write(Data("exported \(document.summary) to \(output)\n".utf8))
    } else {
      FileHandle.standardOutput.write(data)
    }
  }
}
