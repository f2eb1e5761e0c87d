import Foundation
import Testing

/// The captured forum pages in `../shared/fixtures/sa` (or `$AWFULBOT_FIXTURES`). They are not in the repository;
/// conformance tests are skipped with this reason when the folder is missing.
enum Fixtures {
  static let directory: URL = {
    if let override = ProcessInfo.processInfo.environment["AWFULBOT_FIXTURES"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // Tests/AwfulScrapingTests/Support/Fixtures.swift → repository root → ../shared/fixtures/sa
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return repo.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sa", isDirectory: true)
  }()

  static let available: Bool = FileManager.default.fileExists(
    atPath: directory.appendingPathComponent("EXPECTED.md").path)

  static let skipReason: Comment =
    "captured pages not found at \(directory.path); set AWFULBOT_FIXTURES to the fixtures/sa folder"

  /// Bytes of a captured page, e.g. `data("showthread.html")`.
  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(name))
  }

  /// A forum URL for a page, so scrapers that read query values (perpage) have one.
  static func url(_ relative: String) -> URL {
    URL(string: relative, relativeTo: URL(string: "https://forums.somethingawful.com/")!)!.absoluteURL
  }
}

/// Pages of our own making, committed in `Tests/AwfulScrapingTests/Pages`.
enum OwnPages {
  static func data(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: "Pages/\(name)", withExtension: nil) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }
    return try Data(contentsOf: url)
  }
}
