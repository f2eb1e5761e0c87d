import CLibXML2
import ForumModel
import Foundation

/// Allocation-free tree walking for the scrapers. A thread page has 40 posts; walking the tree directly with byte
/// comparisons is several times faster than compiling and evaluating an XPath expression per post. The reading is
/// `RawNode`'s; these wrap what they find in nodes that keep the document alive.
extension HTMLNode {
  init(_ document: HTMLDocument, _ pointer: xmlNodePtr) {
    self.init(document: document, pointer: pointer)
  }

  /// The same node without the document reference, for hot walks while this node keeps the tree alive.
  var raw: RawNode { RawNode(pointer) }

  /// The node for `raw`, a node of this node's tree.
  func node(_ raw: RawNode) -> HTMLNode { HTMLNode(document, raw.pointer) }

  /// True for an element named `tag` (lower case, as libxml2's HTML parser stores names).
  @inline(__always)
  package func isElement(_ tag: String) -> Bool { raw.isElement(tag) }

  /// The element's attribute named `name` (see `RawNode.property`).
  func property(_ name: String) -> xmlAttrPtr? { raw.property(name) }

  /// The attribute's value without copying it out of the tree; nil when absent or empty.
  func rawAttribute(_ name: String) -> UnsafePointer<xmlChar>? { raw.rawAttribute(name) }

  /// True when the element has the attribute at all (even empty).
  package func hasAttribute(_ name: String) -> Bool { raw.hasAttribute(name) }

  /// True when the whitespace-separated `class` attribute contains `name`. Does not allocate.
  package func hasClassToken(_ name: String) -> Bool { raw.hasClassToken(name) }

  /// True when the attribute's value is exactly `value`. Does not allocate.
  package func attribute(_ name: String, equals value: String) -> Bool { raw.attribute(name, equals: value) }

  /// True when the attribute's value contains `fragment` (CSS `[attr *= 'fragment']`).
  package func attribute(_ name: String, contains fragment: String) -> Bool { raw.attribute(name, contains: fragment) }

  /// An element named `tag` that has class `className` (when given).
  package func matches(_ tag: String, class className: String? = nil) -> Bool {
    raw.matches(tag, class: className)
  }

  package var firstChild: HTMLNode? { pointer.pointee.children.map { HTMLNode(document, $0) } }
  package var nextSibling: HTMLNode? { pointer.pointee.next.map { HTMLNode(document, $0) } }
  package var previousSibling: HTMLNode? { pointer.pointee.prev.map { HTMLNode(document, $0) } }
  package var lastChild: HTMLNode? { pointer.pointee.last.map { HTMLNode(document, $0) } }

  /// The text of a text or comment node (not its descendants).
  package var nodeContent: String { raw.nodeContent }

  /// True when the node's own text (a text or comment node) contains `fragment`. Does not allocate.
  func contentContains(_ fragment: String) -> Bool { raw.contentContains(fragment) }

  /// Visits descendants in document order. `visit` returns whether to descend into the node's children.
  package func walkDescendants(_ visit: (HTMLNode) -> WalkDecision) {
    raw.walkDescendants { visit(node($0)) }
  }

  /// The first child node satisfying `predicate`, without building the list of children.
  package func firstChild(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    raw.firstChild { predicate(node($0)) }.map(node)
  }

  /// The first descendant (document order) satisfying `predicate`.
  package func firstDescendant(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    raw.firstDescendant { predicate(node($0)) }.map(node)
  }

  /// The first descendant element named `tag` with class `className` (when given).
  package func firstDescendant(_ tag: String, class className: String? = nil) -> HTMLNode? {
    // Tested on the raw node: no document reference is taken for the nodes passed over.
    raw.firstDescendant(tag, class: className).map(node)
  }

  /// Every descendant satisfying `predicate`, not looking inside matches when `nested` is false.
  package func descendants(nested: Bool = true, where predicate: (HTMLNode) -> Bool) -> [HTMLNode] {
    raw.descendants(nested: nested) { predicate(node($0)) }.map(node)
  }

  package func descendants(_ tag: String, class className: String? = nil) -> [HTMLNode] {
    raw.descendants { $0.matches(tag, class: className) }.map(node)
  }

  /// The nearest ancestor satisfying `predicate`.
  package func ancestor(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    raw.ancestor { predicate(node($0)) }.map(node)
  }

  /// Text content with whitespace runs collapsed and trimmed, as a browser shows it.
  package var normalizedText: String { textContent.collapsingWhitespace }
}

/// What `walkDescendants` does after visiting a node.
package enum WalkDecision {
  case descend
  case skipChildren
  case stop
}
extension String {
  /// Whitespace runs (including non-breaking spaces) collapsed to one space, trimmed.
  package var collapsingWhitespace: String {
    var clean = true
    var previousSpace = true
    for byte in utf8 {
      let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C || byte == 0x0B
      if byte >= 0x80 || (isSpace && (previousSpace || byte != 0x20)) {
        clean = false
        break
      }
      previousSpace = isSpace
    }
    if clean && !previousSpace { return self }
    // Byte-level, treating U+00A0 (C2 A0) as a space too; other bytes pass through.
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    var pendingSpace = false
    var bytes = utf8.makeIterator()
    var lookahead: UInt8? = bytes.next()
    while let byte = lookahead {
      lookahead = bytes.next()
      var isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C || byte == 0x0B
      if byte == 0xC2, lookahead == 0xA0 {
        isSpace = true
        lookahead = bytes.next()
      }
      if isSpace {
        pendingSpace = !out.isEmpty
      } else {
        if pendingSpace { out.append(0x20) }
        pendingSpace = false
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
