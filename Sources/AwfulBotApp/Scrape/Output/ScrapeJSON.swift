import Foundation

/// Encoding conventions of `awfulbot scrape` output: pretty-printed, keys sorted, slashes unescaped, times as
/// ISO-8601 UTC strings.
enum ScrapeJSON {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// `2012-09-20T16:16:00Z`.
  static func timestamp(_ date: Date?) -> String? {
    date.map { $0.formatted(.iso8601) }
  }
}
