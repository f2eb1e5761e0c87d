import Foundation
import Testing

/// The checkout the tests were built from. Tests read the README, the scripts and golden files from the source tree
/// (through this file's `#filePath`), not from a bundle, so an edit is seen without a resource step.
package enum Repository {
  /// Tests/TestKit/Repository.swift → the repository's root.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The first word of every `code span` in the first column of the README's "Chat commands" table: the commands
  /// the README promises.
  package static func readmeCommands() throws -> Set<String> {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section =
      try #require(readme.components(separatedBy: "## Chat commands").dropFirst().first)
      .components(separatedBy: "\n## ").first ?? ""
    var names = Set<String>()
    for line in section.split(separator: "\n") where line.hasPrefix("| `") {
      let firstColumn = line.dropFirst(2).components(separatedBy: " | ").first ?? ""
      for (offset, span) in firstColumn.components(separatedBy: "`").enumerated() where offset % 2 == 1 {
        if let word = span.split(separator: " ").first { names.insert(String(word)) }
      }
    }
    return names
  }
}
