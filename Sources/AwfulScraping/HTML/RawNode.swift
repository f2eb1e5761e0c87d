import CLibXML2
import ForumModel

/// A node read through its libxml2 pointer alone, for walks inside a call that keeps the document alive.
///
/// `HTMLNode` holds its document, so making one retains it and dropping it releases it again. The scrapers make a
/// node for every element they pass on a page (tens of thousands on a thread page), and that reference counting
/// weighed as much as the tests themselves. `RawNode` is the same reading without the ownership: use it only while
/// an `HTMLNode` or `HTMLDocument` of the same tree is alive, and never store it.
struct RawNode {
  let pointer: xmlNodePtr

  @inline(__always)
  init(_ pointer: xmlNodePtr) {
    self.pointer = pointer
  }

  var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
  var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }
  var isComment: Bool { pointer.pointee.type == XML_COMMENT_NODE }

  /// Lower-case tag name (`table`), or `text`/`comment` for other nodes.
  var name: String {
    guard let raw = pointer.pointee.name else { return "" }
    return String(cString: raw)
  }

  /// True for an element named `tag` (lower case, as libxml2's HTML parser stores names).
  @inline(__always)
  func isElement(_ tag: String) -> Bool {
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

  func attribute(_ name: String) -> String? {
    // Fast path: a plain attribute value is one text node; read it in place instead of copying it out (xmlGetProp
    // allocates), since scrapers read thousands of attributes per page.
    guard let property = property(name) else { return nil }
    guard let text = property.pointee.children else { return "" }
    if text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE, let content = text.pointee.content {
      return String(cString: content)
    }
    guard let value = xmlGetProp(pointer, name) else { return nil }
    defer { awful_xml_free(value) }
    return String(cString: value)
  }

  /// The whitespace-separated tokens of the `class` attribute.
  var classes: [String] {
    (attribute("class") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
  }

  /// True when the element has the attribute at all (even empty).
  func hasAttribute(_ name: String) -> Bool {
    property(name) != nil
  }

  /// Calls `body` with each whitespace-separated token of the `class` attribute, in order. Does not allocate.
  func forEachClassToken(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    guard let raw = rawAttribute("class") else { return }
    var i = 0
    while raw[i] != 0 {
      while raw[i] != 0, Self.isSpace(raw[i]) { i += 1 }
      let start = i
      while raw[i] != 0, !Self.isSpace(raw[i]) { i += 1 }
      if i > start { body(UnsafeBufferPointer(start: raw + start, count: i - start)) }
    }
  }

  /// True when the whitespace-separated `class` attribute contains `name`. Does not allocate.
  func hasClassToken(_ name: String) -> Bool {
    guard let raw = rawAttribute("class") else { return false }
    var name = name
    return name.withUTF8 { Self.classList(raw, contains: $0) }
  }

  /// True when the attribute's value is exactly `value`. Does not allocate.
  func attribute(_ name: String, equals value: String) -> Bool {
    guard let raw = rawAttribute(name) else { return value.isEmpty && hasAttribute(name) }
    return xmlStrEqual(raw, value) != 0
  }

  /// True when the attribute's value contains `fragment` (CSS `[attr *= 'fragment']`).
  func attribute(_ name: String, contains fragment: String) -> Bool {
    guard let raw = rawAttribute(name) else { return false }
    return xmlStrstr(raw, fragment) != nil
  }

  /// An element named `tag` that has class `className` (when given).
  func matches(_ tag: String, class className: String? = nil) -> Bool {
    guard isElement(tag) else { return false }
    guard let className else { return true }
    return hasClassToken(className)
  }

  var firstChild: RawNode? { pointer.pointee.children.map(RawNode.init) }
  var nextSibling: RawNode? { pointer.pointee.next.map(RawNode.init) }
  var previousSibling: RawNode? { pointer.pointee.prev.map(RawNode.init) }
  var lastChild: RawNode? { pointer.pointee.last.map(RawNode.init) }

  var parent: RawNode? {
    pointer.pointee.parent.flatMap { $0.pointee.type == XML_ELEMENT_NODE ? RawNode($0) : nil }
  }

  /// All descendant text, entities decoded.
  var textContent: String {
    guard let content = xmlNodeGetContent(pointer) else { return "" }
    defer { awful_xml_free(content) }
    return String(cString: content)
  }

  /// Text content with whitespace runs collapsed and trimmed, as a browser shows it.
  var normalizedText: String { textContent.collapsingWhitespace }

  /// The text of a text or comment node (not its descendants).
  var nodeContent: String {
    guard let content = pointer.pointee.content else { return "" }
    return String(cString: content)
  }

  /// True when the node's own text (a text or comment node) contains `fragment`. Does not allocate.
  func contentContains(_ fragment: String) -> Bool {
    guard let content = pointer.pointee.content else { return false }
    return xmlStrstr(content, fragment) != nil
  }

  /// Visits descendants in document order. `visit` returns whether to descend into the node's children.
  ///
  /// Climbs back up through the nodes' parent links instead of keeping a stack: a walk allocates nothing, and the
  /// scrapers start several per post.
  func walkDescendants(_ visit: (RawNode) -> WalkDecision) {
    let root = pointer
    var next = root.pointee.children
    while let current = next {
      switch visit(RawNode(current)) {
      case .stop:
        return
      case .descend where current.pointee.type == XML_ELEMENT_NODE && current.pointee.children != nil:
        next = current.pointee.children
        continue
      case .descend, .skipChildren:
        break
      }
      // The next sibling, else the next sibling of the nearest ancestor below `root` that has one.
      var node = current
      while true {
        if let sibling = node.pointee.next {
          next = sibling
          break
        }
        guard let up = node.pointee.parent, up != root else { return }
        node = up
      }
    }
  }

  /// The first child node satisfying `predicate`, without building the list of children.
  func firstChild(where predicate: (RawNode) -> Bool) -> RawNode? {
    var child = pointer.pointee.children
    while let current = child {
      let node = RawNode(current)
      if predicate(node) { return node }
      child = current.pointee.next
    }
    return nil
  }

  /// The first descendant (document order) satisfying `predicate`.
  func firstDescendant(where predicate: (RawNode) -> Bool) -> RawNode? {
    var found: RawNode?
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
  func firstDescendant(_ tag: String, class className: String? = nil) -> RawNode? {
    firstDescendant { $0.matches(tag, class: className) }
  }

  /// Every descendant satisfying `predicate`, not looking inside matches when `nested` is false.
  func descendants(nested: Bool = true, where predicate: (RawNode) -> Bool) -> [RawNode] {
    var found: [RawNode] = []
    walkDescendants { node in
      if predicate(node) {
        found.append(node)
        return nested ? .descend : .skipChildren
      }
      return .descend
    }
    return found
  }

  /// The nearest ancestor satisfying `predicate`.
  func ancestor(where predicate: (RawNode) -> Bool) -> RawNode? {
    var current = parent
    while let node = current {
      if predicate(node) { return node }
      current = node.parent
    }
    return nil
  }

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
