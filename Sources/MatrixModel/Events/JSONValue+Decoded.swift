import ChatBridge

extension JSONValue {
  /// Reads open JSON as `T`; nil when it is not an object `T` can read.
  package func decoded<T: Decodable>(as type: T.Type) -> T? {
    try? decode(T.self)
  }
}
