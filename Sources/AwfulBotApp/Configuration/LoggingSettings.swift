import Logging

/// The `logging` section: how much to log and in which shape (standard error either way).
package struct LoggingSettings: Sendable, Encodable, Hashable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case level, format
  }

  /// How log lines are written.
  package enum Format: String, Sendable, Codable, Hashable, CaseIterable {
    /// For people (default).
    case text
    /// One object per line, for log collectors.
    case json
  }

  package static let levels = Logger.Level.allCases.map(\.rawValue)
  package static let formats = Format.allCases.map(\.rawValue)

  /// `trace`, `debug`, `info` (default), `notice`, `warning`, `error`, `critical`.
  package var level: Logger.Level?
  package var format: Format?

  package init(level: Logger.Level? = nil, format: Format? = nil) {
    self.level = level
    self.format = format
  }
}
