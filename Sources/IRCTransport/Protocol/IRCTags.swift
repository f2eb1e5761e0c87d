/// IRCv3 message tags (`@time=…;account=alice`), with the escaping rules of the message-tags spec applied when
/// parsing and serialising: `\:` is `;`, `\s` is a space, `\\` a backslash, `\r` and `\n` CR and LF.
package struct IRCTags: Sendable, Hashable {
  /// Tag values, unescaped. A tag without a value (`@draft/flag`) has the empty string.
  package var values: [String: String]

  package init(_ values: [String: String] = [:]) { self.values = values }

  package subscript(key: String) -> String? {
    get { values[key] }
    set { values[key] = newValue }
  }

  package var isEmpty: Bool { values.isEmpty }

  /// Parses the part between `@` and the first space.
  package init(parsing text: Substring) throws(IRCParseError) {
    var values: [String: String] = [:]
    for item in text.split(separator: ";", omittingEmptySubsequences: true) {
      let key: Substring
      let raw: Substring
      if let equals = item.firstIndex(of: "=") {
        key = item[..<equals]
        raw = item[item.index(after: equals)...]
      } else {
        key = item
        raw = ""
      }
      guard Self.isValidKey(key) else { throw .invalidTagKey(String(key)) }
      // The spec: when a key repeats, the last value wins.
      values[String(key)] = Self.unescape(raw)
    }
    self.values = values
  }

  /// `key=value;key2` with values escaped, keys sorted so output is stable; empty when there are no tags.
  package var serialized: String {
    values.keys.sorted().map { key in
      let value = values[key] ?? ""
      return value.isEmpty ? key : key + "=" + Self.escape(value)
    }.joined(separator: ";")
  }

  /// Keys are an optional `+` (client-only tag), an optional vendor (`example.com/`), then letters, digits, `-`.
  static func isValidKey(_ key: Substring) -> Bool {
    var name = key
    if name.first == "+" { name = name.dropFirst() }
    if let slash = name.lastIndex(of: "/") {
      let vendor = name[..<slash]
      guard !vendor.isEmpty, vendor.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
      else { return false }
      name = name[name.index(after: slash)...]
    }
    return !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }

  static func unescape(_ raw: Substring) -> String {
    guard raw.contains("\\") else { return String(raw) }
    var result = ""
    var iterator = raw.makeIterator()
    while let character = iterator.next() {
      guard character == "\\" else {
        result.append(character)
        continue
      }
      // A lone backslash at the end is dropped; an unknown escape stands for the character itself.
      guard let next = iterator.next() else { break }
      switch next {
      case ":": result.append(";")
      case "s": result.append(" ")
      case "\\": result.append("\\")
      case "r": result.append("\r")
      case "n": result.append("\n")
      default: result.append(next)
      }
    }
    return result
  }

  static func escape(_ value: String) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case ";": result += "\\:"
      case " ": result += "\\s"
      case "\\": result += "\\\\"
      case "\r": result += "\\r"
      case "\n": result += "\\n"
      case "\0": continue
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
