import Foundation
import Logging

/// Writes each log entry as one JSON object on one line (`{"time":…,"level":…,"label":…,"message":…, metadata…}`),
/// for journald, Docker and log collectors that parse fields.
package struct JSONLogHandler: LogHandler {
  package var logLevel: Logger.Level = .info
  package var metadata: Logger.Metadata = [:]
  package var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private let write: @Sendable (String) -> Void

  package init(label: String, write: @escaping @Sendable (String) -> Void = LogLine.standardError) {
    self.label = label
    self.write = write
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  package func log(event: LogEvent) {
    let fields = LogLine.fields(of: event, handler: metadata, provider: metadataProvider)
    var object: [String: Any] = [:]
    for (key, value) in fields { object[key] = Self.json(value) }
    object["time"] = Self.timestamp(Date())
    object["level"] = event.level.rawValue
    object["label"] = label
    object["message"] = event.message.description
    if let error = event.error { object["error"] = "\(error)" }
    guard
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
      let line = String(data: data, encoding: .utf8)
    else { return }
    write(line)
  }

  private static func json(_ value: Logger.Metadata.Value) -> Any {
    switch value {
    case .string(let text): text
    case .stringConvertible(let convertible): convertible.description
    case .array(let items): items.map(json)
    case .dictionary(let members): members.mapValues(json)
    }
  }

  private static func timestamp(_ date: Date) -> String {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
  }
}
