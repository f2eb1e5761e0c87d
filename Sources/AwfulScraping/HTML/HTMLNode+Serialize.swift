import CLibXML2
import ForumModel
import Foundation

extension HTMLNode {
  /// Several nodes serialised as HTML (UTF-8) into one buffer, in order: the inner HTML of a range of siblings.
  package static func serialize(_ nodes: [HTMLNode]) -> String {
    serialize(nodes.map(\.raw)) { bytes in String(decoding: bytes, as: UTF8.self) }
  }

  /// `serialize(nodes).trimmed`, trimming ASCII whitespace on the bytes so the HTML is copied into a `String` once
  /// (post bodies start and end with newlines). An edge that is not ASCII takes the character-level `trimmed`.
  static func serializeTrimmed(_ nodes: [HTMLNode]) -> String {
    serializeTrimmed(nodes.map(\.raw))
  }

  /// `serializeTrimmed` of raw nodes, for callers that hold their page.
  static func serializeTrimmed(_ nodes: [RawNode]) -> String {
    serialize(nodes) { bytes in
      func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
      var lower = 0
      var upper = bytes.count
      while lower < upper, isASCIISpace(bytes[lower]) { lower += 1 }
      while upper > lower, isASCIISpace(bytes[upper - 1]) { upper -= 1 }
      if lower == upper { return "" }
      guard bytes[lower] < 0x80, bytes[upper - 1] < 0x80 else {
        return String(decoding: bytes, as: UTF8.self).trimmed
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
    }
  }

  private static func serialize(_ nodes: [RawNode], _ read: (UnsafeBufferPointer<UInt8>) -> String) -> String {
    if let html = HTMLSerializer.withBytes(of: nodes, read) { return html }
    return serializeWithLibXML2(nodes, read)
  }

  /// libxml2's own serialiser, for the node shapes `HTMLSerializer` leaves to it (and to check it against).
  static func serializeWithLibXML2(_ nodes: [RawNode], _ read: (UnsafeBufferPointer<UInt8>) -> String) -> String {
    guard let first = nodes.first, let buffer = xmlAllocOutputBuffer(nil) else { return "" }
    defer { xmlOutputBufferClose(buffer) }
    for node in nodes {
      htmlNodeDumpFormatOutput(buffer, first.pointer.pointee.doc, node.pointer, "UTF-8", 0)
    }
    xmlOutputBufferFlush(buffer)
    guard let content = xmlOutputBufferGetContent(buffer) else { return "" }
    let size = Int(xmlOutputBufferGetSize(buffer))
    return content.withMemoryRebound(to: UInt8.self, capacity: size) {
      read(UnsafeBufferPointer(start: $0, count: size))
    }
  }
}
