import Logging
import Synchronization

/// What a `CapturingLogHandler` wrote, in order.
package final class LogCapture: Sendable {
  package struct Entry: Sendable {
    package var level: Logger.Level
    package var message: String
    package var metadata: Logger.Metadata

    /// `level message key=value…` with the keys sorted, the form tests search for secrets in.
    package var line: String {
      "\(level) \(message) \(metadata.map { "\($0)=\($1)" }.sorted().joined(separator: " "))"
    }
  }

  private let stored = Mutex<[Entry]>([])

  package init() {}

  package var entries: [Entry] { stored.withLock { $0 } }
  /// Every entry as one line with its level and metadata.
  package var lines: [String] { entries.map(\.line) }
  /// The messages alone.
  package var messages: [String] { entries.map(\.message) }

  package func append(_ entry: Entry) { stored.withLock { $0.append(entry) } }
}
