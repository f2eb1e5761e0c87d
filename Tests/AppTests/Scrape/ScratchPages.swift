import AwfulBotTestKit
import Foundation

/// Pages the tests write themselves, in a temporary folder removed when the value is dropped.
final class ScratchPages {
  let directory: URL

  init() throws {
    directory = TestScratch.path("awfulbot-scrape")
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
