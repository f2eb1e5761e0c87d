/// A libolm object kept between runs as a pickle, which libolm encrypts with the pickle key. The four kinds (account,
/// Olm session, outbound and inbound Megolm session) differ only in which libolm functions they call, so those are
/// the requirements and the pickling itself is written once.
protocol OlmPickled: AnyObject {
  var pointer: OpaquePointer { get }
  /// A fresh object in its own memory, for `unpickle` to fill.
  static func blank() -> Self
  /// What the errors call it ("account", "group session").
  static var kind: String { get }
  static func pickleLength(_ object: OpaquePointer) -> Int
  static func pickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int
  static func unpickle(_ object: OpaquePointer, _ key: [UInt8], _ buffer: inout [UInt8]) -> Int
  /// Throws libolm's last error for this object when `result` is libolm's error value.
  func check(_ operation: String, _ result: Int) throws
}

extension OlmPickled {
  static func unpickle(_ pickle: String, key: [UInt8]) throws -> Self {
    let object = blank()
    var buffer = OlmError.bytes(pickle)
    try object.check("unpickle \(kind)", unpickle(object.pointer, key, &buffer))
    return object
  }

  func pickle(key: [UInt8]) throws -> String {
    var buffer = [UInt8](repeating: 0, count: Self.pickleLength(pointer))
    let length = Self.pickle(pointer, key, &buffer)
    try check("pickle \(Self.kind)", length)
    return OlmError.string(buffer, count: length)
  }
}
