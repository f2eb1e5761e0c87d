import Logging

/// A `LogHandler` that keeps every entry (with the logger's and the entry's metadata) in a `LogCapture`.
package struct CapturingLogHandler: LogHandler {
  package let capture: LogCapture
  package var metadata: Logger.Metadata = [:]
  package var logLevel: Logger.Level = .trace

  package init(capture: LogCapture) { self.capture = capture }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  package func log(event: LogEvent) {
    capture.append(
      LogCapture.Entry(
        level: event.level, message: event.message.description,
        metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
  }
}
