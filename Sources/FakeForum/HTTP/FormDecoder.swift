import Foundation

/// Decodes query strings and POST bodies the way the forum (PHP) reads them.
enum FormDecoder {
  typealias Field = LoggedRequest.Field

  /// A query string: percent-encoded UTF-8 (what clients send for GET), falling back to windows-1252.
  static func decodeQuery(_ query: String?) -> [Field] {
    guard let query, !query.isEmpty else { return [] }
    return decodeURLEncoded(Array(query.utf8), charset: .utf8)
  }

  enum Charset {
    case utf8
    case windows1252
  }

  static func decodeURLEncoded(_ bytes: [UInt8], charset: Charset) -> [Field] {
    bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
      let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = text(percentDecoded(parts[0]), charset: charset)
      let value = parts.count > 1 ? text(percentDecoded(parts[1]), charset: charset) : ""
      return Field(name: name, value: value)
    }
  }

  /// A POST body, by its Content-Type. Values are windows-1252 (`defaultCharset`: a form that says
  /// `accept-charset="UTF-8"`, the search form, is sent in UTF-8) unless the type says UTF-8, and the `&#N;`
  /// entities a forum client sends for other characters are decoded.
  static func decodeBody(_ body: [UInt8], contentType: String?, defaultCharset: Charset = .windows1252) -> [Field] {
    let type = (contentType ?? "").lowercased()
    let charset: Charset = type.contains("charset=utf-8") ? .utf8 : defaultCharset
    let fields: [Field]
    if type.hasPrefix("multipart/form-data"), let boundary = boundary(in: contentType ?? "") {
      fields = decodeMultipart(body, boundary: boundary, charset: charset)
    } else if type.hasPrefix("application/x-www-form-urlencoded") || type.isEmpty {
      fields = decodeURLEncoded(body, charset: charset)
    } else {
      fields = []
    }
    return fields.map { Field(name: $0.name, value: Windows1252.decodeNumericEntities($0.value)) }
  }

  private static func text(_ bytes: [UInt8], charset: Charset) -> String {
    switch charset {
    case .utf8: String(validating: bytes, as: UTF8.self) ?? Windows1252.decode(bytes)
    case .windows1252: Windows1252.decode(bytes)
    }
  }

  private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    while i < bytes.endIndex {
      let byte = bytes[i]
      if byte == UInt8(ascii: "+") {
        out.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), i + 2 < bytes.endIndex,
        let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
      {
        out.append(high << 4 | low)
        i += 2
      } else {
        out.append(byte)
      }
      i += 1
    }
    return out
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func boundary(in contentType: String) -> String? {
    for parameter in contentType.split(separator: ";") {
      let trimmed = parameter.trimmingCharacters(in: .whitespaces)
      if trimmed.lowercased().hasPrefix("boundary=") {
        var value = String(trimmed.dropFirst("boundary=".count))
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
          value = String(value.dropFirst().dropLast())
        }
        return value
      }
    }
    return nil
  }

  private static func decodeMultipart(_ body: [UInt8], boundary: String, charset: Charset) -> [Field] {
    let delimiter = Array("--\(boundary)".utf8)
    var fields: [Field] = []
    var positions: [Int] = []
    var searchFrom = 0
    while let found = find(delimiter, in: body, from: searchFrom) {
      positions.append(found)
      searchFrom = found + delimiter.count
    }
    for (n, start) in positions.enumerated() where n + 1 < positions.count {
      var partStart = start + delimiter.count
      // Skip the CRLF after the delimiter line.
      if partStart + 1 < body.count, body[partStart] == 13, body[partStart + 1] == 10 { partStart += 2 }
      var partEnd = positions[n + 1]
      // The CRLF before the next delimiter belongs to the delimiter.
      if partEnd >= 2, body[partEnd - 2] == 13, body[partEnd - 1] == 10 { partEnd -= 2 }
      guard partStart <= partEnd, let headerEnd = find([13, 10, 13, 10], in: body, from: partStart, upTo: partEnd)
      else { continue }
      let headers = String(decoding: body[partStart..<headerEnd], as: UTF8.self)
      guard let name = dispositionParameter("name", in: headers) else { continue }
      let valueBytes = Array(body[(headerEnd + 4)..<partEnd])
      if let filename = dispositionParameter("filename", in: headers) {
        fields.append(Field(name: name, value: "\(filename) (\(valueBytes.count) bytes)"))
      } else {
        let partCharset: Charset = headers.lowercased().contains("charset=utf-8") ? .utf8 : charset
        fields.append(Field(name: name, value: text(valueBytes, charset: partCharset)))
      }
    }
    return fields
  }

  private static func dispositionParameter(_ parameter: String, in headers: String) -> String? {
    for line in headers.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
      for piece in line.split(separator: ";") {
        let trimmed = piece.trimmingCharacters(in: .whitespaces)
        let prefix = "\(parameter)="
        if trimmed.lowercased().hasPrefix(prefix) {
          var value = String(trimmed.dropFirst(prefix.count))
          if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast())
          }
          return value
        }
      }
    }
    return nil
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, upTo: Int? = nil) -> Int? {
    let end = (upTo ?? haystack.count) - needle.count
    guard !needle.isEmpty, from <= end else { return nil }
    var i = from
    while i <= end {
      if haystack[i] == needle[0] {
        var matched = true
        for k in 1..<needle.count where haystack[i + k] != needle[k] {
          matched = false
          break
        }
        if matched { return i }
      }
      i += 1
    }
    return nil
  }
}
