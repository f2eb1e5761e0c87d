import CLibXML2
import Foundation

/// Allocation-free tree walking for the scrapers. A thread page has 40 posts; walking the tree directly with byte
/// comparisons is several times faster than compiling and evaluating an XPath expression per post.
extension HTMLNode {
  init(_ document: HTMLDocument, _ pointer: xmlNodePtr) {
    self.init(document: document, pointer: pointer)
  }

  /// True for an element named `tag` (lower case, as libxml2's HTML parser stores names).
  @inline(__always)
  package func isElement(_ tag: String) -> Bool {
    guard pointer.pointee.type == XML_ELEMENT_NODE, let name = pointer.pointee.name else { return false }
    // Compared inline: the walks ask this about every node several times, and most answers fail on the first byte.
    return Self.equals(name, tag)
  }

  /// True when the NUL-terminated `raw` is exactly `text` (byte for byte).
  @inline(__always)
  static func equals(_ raw: UnsafePointer<xmlChar>, _ text: String) -> Bool {
    var i = 0
    for byte in text.utf8 {
      // A NUL in `raw` ends it early and never equals a byte of `text` (tag and attribute names have none).
      guard raw[i] == byte else { return false }
      i += 1
    }
    return raw[i] == 0
  }

  /// The element's attribute named `name`, looked up inline. Same result as `xmlHasProp` for HTML pages, whose
  /// DTD never declares default attribute values (libxml2's HTML parser does not read declarations), minus the call
  /// and the DTD lookup it makes for every absent attribute.
  func property(_ name: String) -> xmlAttrPtr? {
    guard pointer.pointee.type == XML_ELEMENT_NODE else { return nil }
    var property = pointer.pointee.properties
    while let current = property {
      if let propertyName = current.pointee.name, Self.equals(propertyName, name) { return current }
      property = current.pointee.next
    }
    return nil
  }

  /// The attribute's value without copying it out of the tree; nil when absent or empty.
  func rawAttribute(_ name: String) -> UnsafePointer<xmlChar>? {
    guard let attribute = property(name), let value = attribute.pointee.children else { return nil }
    if value.pointee.next == nil, let content = value.pointee.content { return UnsafePointer(content) }
    return nil
  }

  /// True when the element has the attribute at all (even empty).
  package func hasAttribute(_ name: String) -> Bool {
    property(name) != nil
  }

  /// True when the whitespace-separated `class` attribute contains `name`. Does not allocate.
  package func hasClassToken(_ name: String) -> Bool {
    guard let raw = rawAttribute("class") else { return false }
    var name = name
    return name.withUTF8 { Self.classList(raw, contains: $0) }
  }

  /// True when the attribute's value is exactly `value`. Does not allocate.
  package func attribute(_ name: String, equals value: String) -> Bool {
    guard let raw = rawAttribute(name) else { return value.isEmpty && hasAttribute(name) }
    return xmlStrEqual(raw, value) != 0
  }

  /// True when the attribute's value contains `fragment` (CSS `[attr *= 'fragment']`).
  package func attribute(_ name: String, contains fragment: String) -> Bool {
    guard let raw = rawAttribute(name) else { return false }
    return xmlStrstr(raw, fragment) != nil
  }

  /// An element named `tag` that has class `className` (when given).
  package func matches(_ tag: String, class className: String? = nil) -> Bool {
    guard isElement(tag) else { return false }
    guard let className else { return true }
    return hasClassToken(className)
  }

  package var firstChild: HTMLNode? { pointer.pointee.children.map { HTMLNode(document, $0) } }
  package var nextSibling: HTMLNode? { pointer.pointee.next.map { HTMLNode(document, $0) } }
  package var previousSibling: HTMLNode? { pointer.pointee.prev.map { HTMLNode(document, $0) } }
  package var lastChild: HTMLNode? { pointer.pointee.last.map { HTMLNode(document, $0) } }

  /// The text of a text or comment node (not its descendants).
  package var nodeContent: String {
    guard let content = pointer.pointee.content else { return "" }
    return String(cString: content)
  }

  /// True when the node's own text (a text or comment node) contains `fragment`. Does not allocate.
  func contentContains(_ fragment: String) -> Bool {
    guard let content = pointer.pointee.content else { return false }
    return xmlStrstr(content, fragment) != nil
  }

  /// Visits descendants in document order. `visit` returns whether to descend into the node's children.
  package func walkDescendants(_ visit: (HTMLNode) -> WalkDecision) {
    var stack: [xmlNodePtr] = []
    var next = pointer.pointee.children
    while true {
      guard let current = next else {
        guard let resume = stack.popLast() else { return }
        next = resume.pointee.next
        continue
      }
      switch visit(HTMLNode(document, current)) {
      case .stop:
        return
      case .descend where current.pointee.type == XML_ELEMENT_NODE && current.pointee.children != nil:
        stack.append(current)
        next = current.pointee.children
      case .descend, .skipChildren:
        next = current.pointee.next
      }
    }
  }

  /// The first child node satisfying `predicate`, without building the list of children.
  package func firstChild(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    var child = pointer.pointee.children
    while let current = child {
      let node = HTMLNode(document, current)
      if predicate(node) { return node }
      child = current.pointee.next
    }
    return nil
  }

  /// The first descendant (document order) satisfying `predicate`.
  package func firstDescendant(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    var found: HTMLNode?
    walkDescendants { node in
      if predicate(node) {
        found = node
        return .stop
      }
      return .descend
    }
    return found
  }

  /// The first descendant element named `tag` with class `className` (when given).
  package func firstDescendant(_ tag: String, class className: String? = nil) -> HTMLNode? {
    firstDescendant { $0.matches(tag, class: className) }
  }

  /// Every descendant satisfying `predicate`, not looking inside matches when `nested` is false.
  package func descendants(nested: Bool = true, where predicate: (HTMLNode) -> Bool) -> [HTMLNode] {
    var found: [HTMLNode] = []
    walkDescendants { node in
      if predicate(node) {
        found.append(node)
        return nested ? .descend : .skipChildren
      }
      return .descend
    }
    return found
  }

  package func descendants(_ tag: String, class className: String? = nil) -> [HTMLNode] {
    descendants { $0.matches(tag, class: className) }
  }

  /// The nearest ancestor satisfying `predicate`.
  package func ancestor(where predicate: (HTMLNode) -> Bool) -> HTMLNode? {
    var current = parent
    while let node = current {
      if predicate(node) { return node }
      current = node.parent
    }
    return nil
  }

  /// Text content with whitespace runs collapsed and trimmed, as a browser shows it.
  package var normalizedText: String { textContent.collapsingWhitespace }

  private static func classList(_ raw: UnsafePointer<xmlChar>, contains token: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !token.isEmpty else { return false }
    var i = 0
    while raw[i] != 0 {
      while raw[i] != 0, isSpace(raw[i]) { i += 1 }
      let start = i
      while raw[i] != 0, !isSpace(raw[i]) { i += 1 }
      if i - start == token.count {
        var equal = true
        for k in 0..<token.count where raw[start + k] != token[k] {
          equal = false
          break
        }
        if equal { return true }
      }
    }
    return false
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12
  }
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
