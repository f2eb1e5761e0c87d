/// Builds `multipart/form-data` bodies in windows-1252, the only POST encoding the forum's forms accept.
package struct MultipartFormEncoder: Sendable {
  package let boundary: String

  package init(boundary: String) {
    self.boundary = boundary
  }

  /// A fresh boundary in the style browsers use; random so it cannot collide with field content by accident.
  package static func randomBoundary() -> String {
    let first = String(UInt32.random(in: .min ... .max), radix: 16, uppercase: true)
    let second = String(UInt32.random(in: .min ... .max), radix: 16, uppercase: true)
    return "------------------------" + String(repeating: "0", count: 8 - first.count) + first
      + String(repeating: "0", count: 8 - second.count) + second
  }

  package var contentType: String {
    "multipart/form-data; charset=windows-1252; boundary=\(boundary)"
  }

  /// The body: each name and value escaped to windows-1252 (`&#N;` for the rest), textareas with CRLF line breaks.
  package func encode(_ fields: [FormField]) -> [UInt8] {
    var body: [UInt8] = []
    for field in fields {
      body += Array("--\(boundary)\r\n".utf8)
      body += Array("Content-Disposition: form-data; name=\"".utf8)
      body += Windows1252.encode(Self.quotedNameContent(field.name))
      body += Array("\"\r\n\r\n".utf8)
      body += Windows1252.encode(field.submittedValue)
      body += Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return body
  }

  /// Field names go inside a quoted string: escape what would end it or break the header line (HTML's rule).
  private static func quotedNameContent(_ name: String) -> String {
    var result = ""
    for character in name.unicodeScalars {
      switch character {
      case "\"": result += "%22"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}
