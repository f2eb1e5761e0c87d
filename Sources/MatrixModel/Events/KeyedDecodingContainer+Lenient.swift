import ChatBridge

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
