import CLibXML2
import ForumModel
import Foundation

/// Decodes HTML character references in plain text (JSON fields carry titles like `Everyone&#039;s`). Named
/// references use libxml2's HTML 4 entity table.
enum HTMLEntities {
  static func decode(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
        out.append(character)
        index = text.index(after: index)
        continue
      }
      let name = text[text.index(after: index)..<semicolon]
      if let scalar = scalar(for: name) {
        out.unicodeScalars.append(scalar)
        index = text.index(after: semicolon)
      } else {
        out.append(character)
        index = text.index(after: index)
      }
    }
    return out
  }

  private static func scalar(for name: Substring) -> Unicode.Scalar? {
    if name.hasPrefix("#x") || name.hasPrefix("#X") {
      return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
    }
    if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
    if name == "apos" { return "'" }
    guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
    guard let entity = htmlEntityLookup(String(name)) else { return nil }
    return Unicode.Scalar(entity.pointee.value)
  }
}
