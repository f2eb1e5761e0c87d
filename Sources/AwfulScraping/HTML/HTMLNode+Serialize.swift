import CLibXML2
import Foundation

extension HTMLNode {
  /// Several nodes serialised as HTML (UTF-8) into one buffer, in order: the inner HTML of a range of siblings.
  package static func serialize(_ nodes: [HTMLNode]) -> String {
    guard let first = nodes.first, let buffer = xmlAllocOutputBuffer(nil) else { return "" }
    defer { xmlOutputBufferClose(buffer) }
    for node in nodes {
      htmlNodeDumpFormatOutput(buffer, first.document.pointer, node.pointer, "UTF-8", 0)
    }
    xmlOutputBufferFlush(buffer)
    guard let content = xmlOutputBufferGetContent(buffer) else { return "" }
    let size = Int(xmlOutputBufferGetSize(buffer))
    return content.withMemoryRebound(to: UInt8.self, capacity: size) {
      String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self)
    }
  }
}
