import CLibXML2
import ForumModel
import Foundation

/// A node of an `HTMLDocument`. Holds the document so the tree stays alive as long as the node is used.
/// Not `Sendable`: libxml2 trees are read from one task at a time; scrapers return value types instead.
package struct HTMLNode {
  package let document: HTMLDocument
  let pointer: xmlNodePtr

  init(document: HTMLDocument, pointer: xmlNodePtr) {
    self.document = document
    self.pointer = pointer
  }

  package var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
  package var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }
  package var isComment: Bool { pointer.pointee.type == XML_COMMENT_NODE }

  /// Lower-case tag name (`table`), or `text`/`comment` for other nodes.
  package var name: String {
    guard let raw = pointer.pointee.name else { return "" }
    return String(cString: raw)
  }

  package func attribute(_ name: String) -> String? { raw.attribute(name) }

  package var classes: [String] {
    (attribute("class") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
  }

  package func hasClass(_ name: String) -> Bool { classes.contains(name) }

  /// All descendant text, entities decoded.
  package var textContent: String { raw.textContent }

  /// Child nodes (elements, text, comments) in order.
  package var children: [HTMLNode] {
    var out: [HTMLNode] = []
    var child = pointer.pointee.children
    while let node = child {
      out.append(HTMLNode(document: document, pointer: node))
      child = node.pointee.next
    }
    return out
  }

  package var elementChildren: [HTMLNode] { children.filter(\.isElement) }

  package var parent: HTMLNode? {
    pointer.pointee.parent.flatMap {
      $0.pointee.type == XML_ELEMENT_NODE ? HTMLNode(document: document, pointer: $0) : nil
    }
  }

  /// The children serialised as HTML (UTF-8).
  package var innerHTML: String {
    var out = ""
    var child = pointer.pointee.children
    while let node = child {
      out += Self.serialize(node, document: document)
      child = node.pointee.next
    }
    return out
  }

  package func nodes(_ xpath: String) -> [HTMLNode] { document.nodes(xpath, in: self) }
  package func first(_ xpath: String) -> HTMLNode? { document.first(xpath, in: self) }

  private static func serialize(_ node: xmlNodePtr, document: HTMLDocument) -> String {
    guard let buffer = xmlAllocOutputBuffer(nil) else { return "" }
    defer { xmlOutputBufferClose(buffer) }
    htmlNodeDumpFormatOutput(buffer, document.pointer, node, "UTF-8", 0)
    xmlOutputBufferFlush(buffer)
    guard let content = xmlOutputBufferGetContent(buffer) else { return "" }
    let size = Int(xmlOutputBufferGetSize(buffer))
    return content.withMemoryRebound(to: UInt8.self, capacity: size) {
      String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self)
    }
  }
}
