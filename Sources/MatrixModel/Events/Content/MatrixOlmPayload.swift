import ChatBridge

/// The plaintext inside an Olm message: the to-device event (type and content) with who sent it to whom, by user and
/// by ed25519 key, so a message cannot be passed off as coming from, or meant for, another device.
package struct MatrixOlmPayload: Sendable, Hashable, Codable {
  /// An ed25519 key, as the payload names one.
  package struct Keys: Sendable, Hashable, Codable {
    package var ed25519: String?

    package init(ed25519: String) {
      self.ed25519 = ed25519
    }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      ed25519 = container.lenient(String.self, forKey: .ed25519)
    }
  }

  package var type: String?
  package var content: JSONValue?
  package var sender: String?
  package var senderDevice: String?
  package var keys: Keys?
  package var recipient: String?
  package var recipientKeys: Keys?

  package init(
    type: String, content: JSONValue, sender: String, senderDevice: String, senderKey: String, recipient: String,
    recipientKey: String
  ) {
    self.type = type
    self.content = content
    self.sender = sender
    self.senderDevice = senderDevice
    self.keys = Keys(ed25519: senderKey)
    self.recipient = recipient
    self.recipientKeys = Keys(ed25519: recipientKey)
  }

  enum CodingKeys: String, CodingKey {
    case type
    case content
    case sender
    case senderDevice = "sender_device"
    case keys
    case recipient
    case recipientKeys = "recipient_keys"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    type = container.lenient(String.self, forKey: .type)
    content = container.lenient(JSONValue.self, forKey: .content)
    sender = container.lenient(String.self, forKey: .sender)
    senderDevice = container.lenient(String.self, forKey: .senderDevice)
    keys = container.lenient(Keys.self, forKey: .keys)
    recipient = container.lenient(String.self, forKey: .recipient)
    recipientKeys = container.lenient(Keys.self, forKey: .recipientKeys)
  }
}
