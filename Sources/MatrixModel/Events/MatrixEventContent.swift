import ChatBridge

/// The content of one event type, typed. Decoding is lenient field by field (see `KeyedDecodingContainer.lenient`):
/// a field of the wrong kind reads as absent, as the key-by-key reads of the open JSON did, so one odd field from a
/// client never hides the rest of an event; fields the bot does not know are ignored. Encoding leaves out what is
/// nil, so optional fields are absent on the wire rather than `null`.
package protocol MatrixEventContent: Codable, Sendable {
  /// The event type whose content this is.
  static var eventType: String { get }
}

extension MatrixEventContent {
  /// The content as open JSON, for the places that carry any content (the encryption seam, the send path). These
  /// types hold strings, integers, booleans and JSON values only, which always encode.
  package var json: JSONValue { (try? JSONValue.encoding(self)) ?? [:] }
}
