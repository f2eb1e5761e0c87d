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

extension JSONValue {
  /// Reads open JSON as `T`; nil when it is not an object `T` can read.
  package func decoded<T: Decodable>(as type: T.Type) -> T? {
    try? decode(T.self)
  }
}

extension KeyedDecodingContainer {
  /// The value under `key`, or nil when it is absent, null or of another kind.
  package func lenient<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
    (try? decodeIfPresent(T.self, forKey: key)) ?? nil
  }

  /// An integer as Matrix clients write them: a number, or a numeric string (old rooms' power levels), see
  /// `JSONValue.intValue`.
  package func lenientInt(forKey key: Key) -> Int? {
    lenient(JSONValue.self, forKey: key)?.intValue
  }
}
