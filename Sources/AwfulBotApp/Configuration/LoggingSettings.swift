/// The `logging` section: how much to log and in which shape (standard error either way).
package struct LoggingSettings: Sendable, Codable, Hashable {
  package static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
  package static let formats = ["text", "json"]

  /// `trace`, `debug`, `info` (default), `notice`, `warning`, `error`, `critical`.
  package var level: String?
  /// `text` (default) for people, `json` (one object per line) for log collectors.
  package var format: String?

  package init(level: String? = nil, format: String? = nil) {
    self.level = level
    self.format = format
  }
}
