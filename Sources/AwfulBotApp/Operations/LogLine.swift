import Foundation
import Logging

/// What the text and JSON log handlers share: where a line goes, and the metadata of one entry.
package enum LogLine {
  /// One `write` per line, so lines from several threads do not interleave.
  package static let standardError: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// The entry's metadata: the provider's, then the handler's, then the event's own, the later winning.
  package static func fields(
    of event: LogEvent, handler metadata: Logger.Metadata, provider: Logger.MetadataProvider?
  ) -> Logger.Metadata {
    var fields = provider?.get() ?? [:]
    fields.merge(metadata) { _, new in new }
    fields.merge(event.metadata ?? [:]) { _, new in new }
    return fields
  }
}
