import ArgumentParser
import AwfulBotApp
import Foundation

struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Reads an export into the database: rooms, subscriptions, filters, alerts and thread cursors.",
    discussion: "One transaction: all of it or nothing. Rows with the same key are replaced; others are kept. "
      + "Stop the bot first, so it does not poll with half-moved state.")

  @OptionGroup var location: DatabaseLocation

  @Argument(help: "The export file (from `awfulbot export`); - for standard input.")
  var file: String

  func run() async throws {
    LoggingSetup.bootstrap(level: .error)
    let (path, _) = try location.resolve()
    let data: Data
    do {
      data =
        file == "-"
        ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw ValidationError("cannot read \(file): \(error.localizedDescription)")
    }
    do {
      let document = try ExportDocument.decode(data)
      try await DataTransfer.importDocument(document, intoDatabaseAt: path)
      FileHandle.standardError.write(Data("imported \(document.summary) into \(path)\n".utf8))
    } catch {
      FileHandle.standardError.write(Data("awfulbot import: \(error)\n".utf8))
      throw ExitCode.failure
    }
  }
}
