/// An optional output field written as `null` when absent, rather than left out, so every documented key of
/// `awfulbot scrape` output is always present.
@propertyWrapper
struct JSONNullable<Value: Encodable & Sendable>: Encodable, Sendable {
  var wrappedValue: Value?

  init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}
