import Crypto
import Foundation

/// Which config file the running bot uses, told by `status` (from the daemon's heartbeat): its checksum and when it
/// was read, and the last reload refused, so an operator who edited the file can see whether the bot took it.
package struct ConfigurationStamp: Sendable, Codable, Hashable {
  package var path: String
  /// The first 12 hex digits of the file's SHA-256, as read.
  package var checksum: String
  /// When the bot read the configuration it runs with (at start or at the last successful reload).
  package var loadedAt: Date
  /// The file's modification time when it was read.
  package var modifiedAt: Date?
  /// The last reload that was refused (a config that did not validate), while the bot went on with this one.
  package var refusedAt: Date?
  package var refusedChecksum: String?
  package var refusedProblems: [String]?

  package init(path: String, checksum: String, loadedAt: Date, modifiedAt: Date?) {
    self.path = path
    self.checksum = checksum
    self.loadedAt = loadedAt
    self.modifiedAt = modifiedAt
  }

  /// The stamp of the file at `path` as it is now; nil when it cannot be read.
  package static func of(path: String, at now: Date = Date()) -> ConfigurationStamp? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    return ConfigurationStamp(path: path, checksum: checksum(of: data), loadedAt: now, modifiedAt: modified)
  }

  /// SHA-256, first 12 hex digits: enough to tell two versions of a file apart in a log line.
  package static func checksum(of data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined().prefix(12).description
  }
}
