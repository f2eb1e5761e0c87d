import ChatBridge

/// `m.room.encrypted`: a Megolm room event, or an Olm to-device message (one ciphertext per recipient device).
package struct MatrixEncrypted: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.roomEncrypted

  /// Megolm carries one ciphertext; Olm one per recipient device, by the device's curve25519 key.
  package enum Ciphertext: Sendable, Hashable, Codable {
    case megolm(String)
    case olm([String: MatrixOlmCiphertext])

    /// Olm entries that are not objects are left out (a message for this device then has no ciphertext for it).
    package init(from decoder: any Decoder) throws {
      switch try JSONValue(from: decoder) {
      case .string(let text): self = .megolm(text)
      case .object(let entries): self = .olm(entries.compactMapValues { $0.decoded(as: MatrixOlmCiphertext.self) })
      default:
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: "a ciphertext is a string or an object"))
      }
    }

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .megolm(let text): try container.encode(text)
      case .olm(let entries): try container.encode(entries)
      }
    }
  }

  package var algorithm: String?
  package var senderKey: String?
  package var ciphertext: Ciphertext?
  package var sessionID: String?
  package var deviceID: String?
  /// The relation in the cleartext (see `MatrixTransport.encryptIfNeeded`), kept as it came: it is passed on to the
  /// decrypted event whole, fields the bot does not read included.
  package var relatesTo: JSONValue?

  package init(
    algorithm: String, senderKey: String, ciphertext: Ciphertext, sessionID: String? = nil, deviceID: String? = nil
  ) {
    self.algorithm = algorithm
    self.senderKey = senderKey
    self.ciphertext = ciphertext
    self.sessionID = sessionID
    self.deviceID = deviceID
  }

  enum CodingKeys: String, CodingKey {
    case algorithm
    case senderKey = "sender_key"
    case ciphertext
    case sessionID = "session_id"
    case deviceID = "device_id"
    case relatesTo = "m.relates_to"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = container.lenient(String.self, forKey: .algorithm)
    senderKey = container.lenient(String.self, forKey: .senderKey)
    ciphertext = container.lenient(Ciphertext.self, forKey: .ciphertext)
    sessionID = container.lenient(String.self, forKey: .sessionID)
    deviceID = container.lenient(String.self, forKey: .deviceID)
    relatesTo = container.lenient(JSONValue.self, forKey: .relatesTo)
  }

  /// The Megolm ciphertext; nil for an Olm message.
  package var megolmCiphertext: String? {
    if case .megolm(let text) = ciphertext { return text }
    return nil
  }

  /// The Olm ciphertext for the device with this curve25519 key; nil for Megolm or another device.
  package func olmCiphertext(for curve25519: String) -> MatrixOlmCiphertext? {
    if case .olm(let entries) = ciphertext { return entries[curve25519] }
    return nil
  }
}
