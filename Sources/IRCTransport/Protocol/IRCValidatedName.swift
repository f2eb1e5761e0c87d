/// A name checked once when it is made (nicks, channel names). Decoding runs the same check, so a config file cannot
/// smuggle in a name the initialiser would refuse; encoding writes the plain string.
package protocol IRCValidatedName: Codable, CustomStringConvertible {
  associatedtype Invalid: Error & CustomStringConvertible
  var value: String { get }
  init(_ value: String) throws(Invalid)
}

extension IRCValidatedName {
  package init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(text)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }

  package var description: String { value }
}
