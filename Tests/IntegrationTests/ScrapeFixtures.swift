import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

/// The captured forum pages in `../shared/fixtures/sa` (or `$AWFULBOT_FIXTURES`), for the `awfulbot scrape` tests.
/// They are not in the repository; tests that need them are skipped with `skipReason` when the folder is missing.
enum ScrapeFixtures {
  static let directory: URL = {
    if let override = ProcessInfo.processInfo.environment["AWFULBOT_FIXTURES"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // Tests/AwfulBotAppTests/ScrapeFixtures.swift → repository root → ../shared/fixtures/sa
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return repo.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sa", isDirectory: true)
  }()

  static let available: Bool = FileManager.default.fileExists(
    atPath: directory.appendingPathComponent("EXPECTED.md").path)

  static let skipReason: Comment =
    "captured pages not found at \(directory.path); set AWFULBOT_FIXTURES to the fixtures/sa folder"

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  static func url(_ relative: String) -> URL {
    URL(string: relative, relativeTo: URL(string: "https://forums.somethingawful.com/")!)!.absoluteURL
  }
}

/// Pages the tests write themselves, in a temporary folder removed when the value is dropped.
final class ScratchPages {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-scrape-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  func write(_ name: String, _ contents: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(contents.utf8).write(to: url)
    return url.path
  }
}
