import Foundation
import Testing

/// The pages captured from the real forum, in `../shared/fixtures/sa` beside the repository (or `$AWFULBOT_FIXTURES`).
/// They are not in the repository: the tests that need them are skipped with `skipReason` when the folder is missing.
/// The one loader for every test target (the scraper conformance suites and the `awfulbot scrape` tests).
package enum CapturedPages {
  package static let directory: URL = {
    if let override = ProcessInfo.processInfo.environment["AWFULBOT_FIXTURES"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // Tests/TestKit/CapturedPages.swift → the repository's root → ../shared/fixtures/sa
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sa", isDirectory: true)
  }()

  package static let available: Bool = FileManager.default.fileExists(
    atPath: directory.appendingPathComponent("EXPECTED.md").path)

  package static let skipReason: Comment =
    "captured pages not found at \(directory.path); set AWFULBOT_FIXTURES to the fixtures/sa folder"

  /// Bytes of a captured page, e.g. `data("showthread.html")`.
  package static func data(_ name: String) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(name))
  }

  /// The file path of a captured page, for commands that read it themselves (`awfulbot scrape`).
  package static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// A forum URL for a page, so scrapers that read query values (perpage) have one.
  package static func url(_ relative: String) -> URL {
    URL(string: relative, relativeTo: URL(string: "https://forums.somethingawful.com/")!)!.absoluteURL
  }
}
