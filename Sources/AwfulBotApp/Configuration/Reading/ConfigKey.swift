/// Any key of a configuration object, for reading the keys a file has (an unknown one is reported) and the transport
/// options no section type declares.
struct ConfigKey: CodingKey, Hashable {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = "\(intValue)"
    self.intValue = intValue
  }
  init(_ key: some CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }

  /// `transports[1].sasl` for a decoder's coding path: list positions in brackets, keys joined with dots, as the
  /// problems name them.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path = ConfigReader.join(path, key.stringValue)
      }
    }
    return path
  }
}
