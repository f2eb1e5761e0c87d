import Foundation

/// Base64 as Matrix writes it: keys and signatures unpadded, secret storage padded (as Element writes it); both
/// read either way.
enum Base64 {
  static func unpadded(_ bytes: some Sequence<UInt8>) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }

  static func padded(_ bytes: some Sequence<UInt8>) -> String { Data(bytes).base64EncodedString() }

  /// Decodes padded or unpadded base64; nil when it is not base64.
  static func decode(_ text: String) -> [UInt8]? {
    var text = text
    while text.hasSuffix("=") { text.removeLast() }
    let padding = (4 - text.count % 4) % 4
    guard padding != 3, let data = Data(base64Encoded: text + String(repeating: "=", count: padding)) else {
      return nil
    }
    return Array(data)
  }
}
