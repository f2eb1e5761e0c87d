import ChatBridge

/// An outbox payload: the `OutgoingMessage` fields at the top level (what every reader decodes), plus optional
/// extra keys only the engine reads. Old payloads are plain messages and decode with the extras absent; readers that
/// decode a plain `OutgoingMessage` ignore the extras. Fields are only ever added.
struct OutboxPayload: Codable, Sendable, Hashable {
  var message: OutgoingMessage
  var summaryBurst: SummaryBurst?

  init(message: OutgoingMessage, summaryBurst: SummaryBurst? = nil) {
    self.message = message
    self.summaryBurst = summaryBurst
  }

  private enum ExtraKeys: String, CodingKey {
    case summaryBurst
  }

  init(from decoder: any Decoder) throws {
    message = try OutgoingMessage(from: decoder)
    summaryBurst = try decoder.container(keyedBy: ExtraKeys.self).decodeIfPresent(
      SummaryBurst.self, forKey: .summaryBurst)
  }

  func encode(to encoder: any Encoder) throws {
    try message.encode(to: encoder)
    var extras = encoder.container(keyedBy: ExtraKeys.self)
    try extras.encodeIfPresent(summaryBurst, forKey: .summaryBurst)
  }
}
