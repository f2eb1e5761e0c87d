import ChatBridge

/// An outbox payload: the `OutgoingMessage` fields at the top level (what every reader decodes), plus optional
/// extra keys only the engine reads. Old payloads are plain messages and decode with the extras absent; readers that
/// decode a plain `OutgoingMessage` ignore the extras. Fields are only ever added.
struct OutboxPayload: Codable, Sendable, Hashable {
  var message: OutgoingMessage
  var summaryBurst: SummaryBurst?
  /// A `redaction` row: the receipt of the relay to take back (`message` is that relay, for `status`).
  var redacts: String?

  init(message: OutgoingMessage, summaryBurst: SummaryBurst? = nil, redacts: String? = nil) {
    self.message = message
    self.summaryBurst = summaryBurst
    self.redacts = redacts
  }

  private enum ExtraKeys: String, CodingKey {
    case summaryBurst, redacts
  }

  init(from decoder: any Decoder) throws {
    message = try OutgoingMessage(from: decoder)
    let extras = try decoder.container(keyedBy: ExtraKeys.self)
    summaryBurst = try extras.decodeIfPresent(SummaryBurst.self, forKey: .summaryBurst)
    redacts = try extras.decodeIfPresent(String.self, forKey: .redacts)
  }

  func encode(to encoder: any Encoder) throws {
    try message.encode(to: encoder)
    var extras = encoder.container(keyedBy: ExtraKeys.self)
    try extras.encodeIfPresent(summaryBurst, forKey: .summaryBurst)
    try extras.encodeIfPresent(redacts, forKey: .redacts)
  }
}
