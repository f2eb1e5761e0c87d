import Foundation

/// The `backup` section: while `run` goes on, an online copy of the database every `everyHours`, the last `keep`
/// kept in `directory`. Absent: no scheduled backups (`awfulbot backup` still makes one on demand).
package struct BackupSettings: Sendable, Encodable, Hashable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case everyHours, keep, directory
  }

  package static let defaultEveryHours = 24.0
  package static let defaultKeep = 7
  package static let defaultDirectory = "backups"
  /// Bounds of `everyHours`: more often than hourly is a copy of the whole database for little gain; the upper bound
  /// keeps the interval a sane `Duration`.
  package static let everyHoursRange = 1.0...8760

  /// Hours between two backups (default 24).
  package var everyHours: Double?
  /// How many backups to keep, newest first; older ones are removed (default 7).
  package var keep: Int?
  /// Where the backups go; a relative path is taken under the data directory (default `backups`). Another disk is
  /// better: a copy on the disk that fails with the database is no backup.
  package var directory: String?

  package init(everyHours: Double? = nil, keep: Int? = nil, directory: String? = nil) {
    self.everyHours = everyHours
    self.keep = keep
    self.directory = directory
  }

  package var interval: Duration { .seconds((everyHours ?? Self.defaultEveryHours) * 3600) }
  package var keepCount: Int { keep ?? Self.defaultKeep }

  /// The backup directory for a database kept in `dataDirectory`.
  package func directoryURL(dataDirectory: URL) -> URL {
    let path = directory ?? Self.defaultDirectory
    return path.hasPrefix("/") ? URL(fileURLWithPath: path) : dataDirectory.appendingPathComponent(path)
  }
}
