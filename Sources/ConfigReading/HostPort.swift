/// `host:port` as written in the config (`127.0.0.1:9464`, `irc.libera.chat:6697`, `[::1]:9464`).
package struct HostPort: Sendable, Hashable, CustomStringConvertible {
  package var host: String
  package var port: Int

  package init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// nil unless the text has a non-empty host and a port in 0...65535 (0 picks a free port).
  package init?(parsing text: String) {
    var hostPart: Substring
    var portPart: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      hostPart = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portPart = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
      if hostPart.contains(":") { return nil }
    }
    guard !hostPart.isEmpty, !hostPart.contains(where: \.isWhitespace), !portPart.isEmpty,
      portPart.allSatisfy(\.isASCII), portPart.allSatisfy(\.isNumber), let port = Int(portPart),
      (0...65535).contains(port)
    else { return nil }
    host = String(hostPart)
    self.port = port
  }

  package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension HostPort: Codable {
  /// Written as the config writes it, `host:port`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let parsed = HostPort(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected host:port, got \(text)")
    }
    self = parsed
  }
}
