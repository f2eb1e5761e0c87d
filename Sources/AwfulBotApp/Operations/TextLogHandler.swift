import Foundation
import Logging

/// The text log lines on standard error, laid out as swift-log's `StreamLogHandler` lays them out
/// (`time level label: key=value … [source] message`), but with every control character escaped in the message, the
/// metadata and the label: logs carry what outsiders wrote (a forum thread's title, a chat line, a nick, a server's
/// error text), and a raw CR or LF there would forge a log line of its own, an ESC sequence would drive the operator's
/// terminal, and a bidirectional override would show the line in another order than it was written.
package struct TextLogHandler: LogHandler {
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
    var fields = LogLine.fields(of: event, handler: metadata, provider: metadataProvider)
    if let error = event.error { fields["error"] = "\(error)" }
    let pairs = fields.sorted { $0.key < $1.key }.map { "\(Self.escaped($0.key))=\(Self.escaped("\($0.value)"))" }
    let metadataText = pairs.isEmpty ? "" : " " + pairs.joined(separator: " ")
    let labelText = label.isEmpty ? "" : " " + Self.escaped(label)
    write(
      "\(Self.timestamp()) \(event.level)\(labelText):\(metadataText) [\(Self.escaped(event.source))] "
        + Self.escaped(event.message.description))
  }

  /// `text` with each control character written out: `\n`, `\r`, `\t`, `\e` (ESC), and `\u{…}` for the other C0 and
  /// C1 controls, DEL, the line and paragraph separators and the bidirectional controls. Everything else is as it
  /// was, so an ordinary line reads the same as before.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{1B}": result += "\\e"
      default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return result
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    // Line and paragraph separators; bidirectional embeddings, overrides and isolates; the marks are left alone.
    case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// Local time as `StreamLogHandler` writes it (`2026-01-06T03:15:00+0100`).
  private static func timestamp() -> String {
    var now = time(nil)
    var local = tm()
    guard localtime_r(&now, &local) != nil else { return "<unknown>" }
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
