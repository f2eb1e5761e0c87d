import Foundation

/// Pages of our own making, committed in `Tests/AwfulScrapingTests/Pages` (this target's resources).
enum OwnPages {
  static func data(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: "Pages/\(name)", withExtension: nil) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }
    return try Data(contentsOf: url)
  }
}
