import Foundation

/// A fresh folder under the test process's scratch root (`TestScratch`) for what a test writes (a database, a config,
/// logs), named with `prefix` so a leftover is easy to trace; `remove()` deletes it with everything in it.
package struct TemporaryDirectory: Sendable {
  package let url: URL

  package init(_ prefix: String = "awfulbot-test") throws {
    url = TestScratch.path(prefix)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  package var path: String { url.path }

  /// The path of `name` inside the folder.
  package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  package func remove() { try? FileManager.default.removeItem(at: url) }
}
