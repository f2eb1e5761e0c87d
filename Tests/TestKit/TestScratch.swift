import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One folder per test process for everything tests write (configs, databases, logs, bot processes' data), removed
/// when the process exits. Suites are structs without a tear-down, so a folder per test could not be removed by the
/// test that made it; under this root they all go at once, and a run killed half-way leaves one folder, named after
/// its process, instead of hundreds of files.
package enum TestScratch {
  package static let root: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { TestScratch.removeRoot() }
    return url
  }()

  /// A new path under the root for a file or folder named after `prefix` (the caller creates it).
  package static func path(_ prefix: String, extension: String? = nil) -> URL {
    let name = "\(prefix)-\(UUID())" + (`extension`.map { ".\($0)" } ?? "")
    return root.appendingPathComponent(name)
  }

  private static func removeRoot() {
    try? FileManager.default.removeItem(at: root)
  }
}
