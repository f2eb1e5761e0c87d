import ArgumentParser
import AwfulBotApp
import Foundation

struct ScrapeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scrape",
    abstract: "Scrapes a saved forum page and prints what the bot reads from it as JSON (see docs/scrape.md).",
    discussion: "Exit status: 0 scraped, 1 unreadable file or unrecognised page, 2 the page is a forum error page.")

  @Argument(help: "The saved page (HTML, or the JSON of index.php?json=1).")
  var file: String

  @Option(help: "Page kind: \(ScrapeKind.allCases.map(\.rawValue).joined(separator: ", ")).")
  var kind: String = "auto"

  @Option(help: "The URL the page came from (some values are read from it, e.g. perpage).")
  var url: String?

  @Option(help: "The forum's time zone for the times printed on the page.")
  var timeZone: String = "America/Chicago"

  @Option(help: "Post bodies as plain text (text) or as the rich-text tree (tree).")
  var body: String = "text"

  func run() throws {
    guard let kind = ScrapeKind(rawValue: kind) else {
      let kinds = ScrapeKind.allCases.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("unknown kind '\(kind)'; use one of \(kinds)")
    }
    guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("unknown time zone '\(timeZone)'") }
    guard let bodyFormat = ScrapeBodyFormat(rawValue: body) else {
      throw ValidationError("unknown body format '\(body)'; use text or tree")
    }
    var pageURL: URL?
    if let url {
      guard let parsed = URL(string: url), parsed.scheme != nil else { throw ValidationError("not a URL: '\(url)'") }
      pageURL = parsed
    }
    let result = ScrapeCommandRunner().run(
      ScrapeOptions(path: file, kind: kind, url: pageURL, timeZone: zone, bodyFormat: bodyFormat))
    if !result.output.isEmpty { print(result.output) }
    if !result.errorMessage.isEmpty {
      FileHandle.standardError.write(Data("awfulbot scrape: \(result.errorMessage)\n".utf8))
    }
    if result.exitCode != 0 { throw ExitCode(result.exitCode) }
  }
}
