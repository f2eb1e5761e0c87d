import ChatBridge
import ForumModel
import Foundation

/// Matrix canonical JSON (spec appendix "Canonical JSON"): keys sorted, no insignificant whitespace, integers without
/// a fraction, UTF-8 not escaped. What device keys and one-time keys are signed over.
enum CanonicalJSON {
  static func string(_ value: JSONValue) -> String {
    encoded(value)
  }

  /// A typed payload (`MatrixOlmPayload`, `MatrixMegolmPayload`) the same way: sorted keys apply at every level.
  static func string(_ value: some Encodable) -> String {
    encoded(value)
  }

  private static func encoded(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// The signed part of an object: everything but `signatures` and `unsigned`.
  static func signable(_ object: [String: JSONValue]) -> String {
    var object = object
    object["signatures"] = nil
    object["unsigned"] = nil
    return string(.object(object))
  }

  static func parse(_ text: String) -> JSONValue? {
    try? JSONNesting.decode(JSONValue.self, from: Data(text.utf8))
  }
}
