import CLibXML2
import ForumModel
import Foundation

/// Writes nodes as HTML the way libxml2's `htmlNodeDumpFormatOutput` does without formatting, byte for byte.
///
/// Every post's body and custom title is kept as HTML, so a thread page serialises 80 subtrees. libxml2's serialiser
/// allocates for every attribute value and text node, compares each attribute name with thirteen boolean names and
/// four URI names with `strcasecmp`, and looks each element up in its tag table: on a thread page that was a fifth
/// of the scrape after the parse. This reproduces its rules (libxml2 2.9's `HTMLtree.c`, `entities.c`, `uri.c`) for
/// the trees its HTML parser builds, copying runs of plain bytes at once into one growing buffer, and hands anything
/// else it would need to guess at (namespaces, entity reference nodes) back to libxml2 so the output never differs.
enum HTMLSerializer {
  /// Calls `read` with the HTML of `nodes` in order; nil when a node is of a shape only libxml2 should write.
  static func withBytes<R>(of nodes: [RawNode], _ read: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    // Both buffers start on the stack (most post bodies fit): only a longer one costs an allocation.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { outStart in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratchStart in
        var out = ByteWriter(outStart)
        defer { out.deallocate() }
        var scratch = ByteWriter(scratchStart)
        defer { scratch.deallocate() }
        for node in nodes {
          guard append(node.pointer, to: &out, scratch: &scratch) else { return nil }
        }
        return read(out.bytes)
      }
    }
  }

  /// Appends `root` and its subtree; false when something in it is left to libxml2.
  private static func append(_ root: xmlNodePtr, to out: inout ByteWriter, scratch: inout ByteWriter) -> Bool {
    var current = root
    var parent = root.pointee.parent
    while true {
      let node = current.pointee
      switch node.type {
      case XML_ELEMENT_NODE:
        guard node.ns == nil, node.nsDef == nil, let name = node.name else { return false }
        out.append(UInt8(ascii: "<"))
        out.append(cString: name)
        var attribute = node.properties
        while let current = attribute {
          guard appendAttribute(current, to: &out, scratch: &scratch) else { return false }
          attribute = current.pointee.next
        }
        // libxml2 writes an empty element (`br`, `img`, …) as its start tag alone and leaves out any children the
        // parser gave it (`<br:x><br>` parses as a `br` holding a `br`).
        if let children = node.children, !isEmptyElement(name) {
          out.append(UInt8(ascii: ">"))
          parent = current
          current = children
          continue
        }
        if writesNoEndTag(name) {
          out.append(UInt8(ascii: ">"))
        } else {
          out.append(UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "/"))
          out.append(cString: name)
          out.append(UInt8(ascii: ">"))
        }
      case XML_TEXT_NODE:
        guard let content = node.content else { break }
        // Script and style text, and text marked as not to be encoded, are written as they are.
        let raw =
          node.name.map { equalsIgnoringCase($0, "textnoenc") } == true
          || parent.flatMap { $0.pointee.name }.map {
            equalsIgnoringCase($0, "script") || equalsIgnoringCase($0, "style")
          } == true
        if raw { out.append(cString: content) } else { appendEncoded(content, isAttribute: false, to: &out) }
      case XML_COMMENT_NODE:
        guard let content = node.content else { break }
        out.append(UInt8(ascii: "<"), UInt8(ascii: "!"), UInt8(ascii: "-"), UInt8(ascii: "-"))
        out.append(cString: content)
        out.append(UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: ">"))
      case XML_PI_NODE:
        guard let name = node.name else { break }
        out.append(UInt8(ascii: "<"), UInt8(ascii: "?"))
        out.append(cString: name)
        if let content = node.content {
          out.append(UInt8(ascii: " "))
          out.append(cString: content)
        }
        out.append(UInt8(ascii: ">"))
      case XML_CDATA_SECTION_NODE:
        // libxml2's HTML_PRESERVE_NODE: written as it is.
        if let content = node.content { out.append(cString: content) }
      case XML_ENTITY_REF_NODE, XML_ATTRIBUTE_NODE, XML_DOCUMENT_NODE, XML_HTML_DOCUMENT_NODE:
        return false
      default:
        // libxml2 writes nothing for the other node types (DTD declarations and the like).
        break
      }

      // Next: the sibling, else close the parents until one has a sibling, stopping at the root.
      while true {
        if current == root { return true }
        if let next = current.pointee.next {
          current = next
          break
        }
        guard let up = parent else { return false }
        current = up
        parent = up.pointee.parent
        out.append(UInt8(ascii: "<"), UInt8(ascii: "/"))
        if let name = up.pointee.name { out.append(cString: name) }
        out.append(UInt8(ascii: ">"))
      }
    }
  }

  /// ` name="value"` as `htmlAttrDumpOutput` writes it: boolean attributes minimised, URI attributes escaped.
  private static func appendAttribute(_ attribute: xmlAttrPtr, to out: inout ByteWriter, scratch: inout ByteWriter)
    -> Bool
  {
    let attr = attribute.pointee
    guard attr.ns == nil, let name = attr.name else { return false }
    out.append(UInt8(ascii: " "))
    out.append(cString: name)
    guard let first = attr.children, !isBooleanAttribute(name) else { return true }
    // The value as `xmlNodeListGetString` builds it: each text child entity-encoded, concatenated.
    scratch.removeAll()
    var child: xmlNodePtr? = first
    while let text = child {
      guard text.pointee.type == XML_TEXT_NODE || text.pointee.type == XML_CDATA_SECTION_NODE else { return false }
      if let content = text.pointee.content { appendEncoded(content, isAttribute: true, to: &scratch) }
      child = text.pointee.next
    }
    out.append(UInt8(ascii: "="))
    let owner = attr.parent
    let isURI =
      owner != nil && owner!.pointee.ns == nil
      && (equalsIgnoringCase(name, "href") || equalsIgnoringCase(name, "action") || equalsIgnoringCase(name, "src")
        || (equalsIgnoringCase(name, "name") && owner!.pointee.name.map { equalsIgnoringCase($0, "a") } == true))
    if isURI {
      // Escaping turns every double quote into %22: the value always goes in double quotes.
      out.append(UInt8(ascii: "\""))
      appendURIEscaped(scratch.bytes, to: &out)
      out.append(UInt8(ascii: "\""))
    } else {
      appendQuoted(scratch.bytes, to: &out)
    }
    return true
  }

  /// `xmlBufWriteQuotedString`: double quotes, or single quotes around a value with a double quote, or double quotes
  /// with `&quot;` when the value has both.
  private static func appendQuoted(_ value: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
    guard value.contains(UInt8(ascii: "\"")) else {
      out.append(UInt8(ascii: "\""))
      out.append(value)
      out.append(UInt8(ascii: "\""))
      return
    }
    guard value.contains(UInt8(ascii: "'")) else {
      out.append(UInt8(ascii: "'"))
      out.append(value)
      out.append(UInt8(ascii: "'"))
      return
    }
    out.append(UInt8(ascii: "\""))
    var start = 0
    for (index, byte) in value.enumerated() where byte == UInt8(ascii: "\"") {
      out.append(UnsafeBufferPointer(rebasing: value[start..<index]))
      out.append(UInt8(ascii: "&"), UInt8(ascii: "q"), UInt8(ascii: "u"), UInt8(ascii: "o"))
      out.append(UInt8(ascii: "t"), UInt8(ascii: ";"))
      start = index + 1
    }
    out.append(UnsafeBufferPointer(rebasing: value[start...]))
    out.append(UInt8(ascii: "\""))
  }

  /// `xmlURIEscapeStr(value, "@/:=?;#%&,+<>")` after skipping leading blanks, as done for `href`, `src`, `action`
  /// and `a[name]`.
  private static func appendURIEscaped(_ value: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
    var start = 0
    while start < value.count,
      value[start] == 0x20 || value[start] == 0x09 || value[start] == 0x0A
        || value[start] == 0x0D
    {
      start += 1
    }
    var run = start
    for index in start..<value.count {
      let byte = value[index]
      if isUnreserved(byte) || isKeptInURI(byte) { continue }
      out.append(UnsafeBufferPointer(rebasing: value[run..<index]))
      out.append(UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F))
      run = index + 1
    }
    out.append(UnsafeBufferPointer(rebasing: value[run...]))
  }

  @inline(__always)
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// RFC 2396 unreserved: letters, digits and the marks `-_.!~*'()`.
  @inline(__always)
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"),
      UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
      true
    default: false
    }
  }

  /// The characters libxml2's HTML serialiser leaves unescaped in URI attributes.
  @inline(__always)
  private static func isKeptInURI(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"),
      UInt8(ascii: ";"), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: ","),
      UInt8(ascii: "+"), UInt8(ascii: "<"), UInt8(ascii: ">"):
      true
    default: false
    }
  }

  /// `xmlEncodeEntitiesInternal` for an HTML document: `<`, `>` and `&` become references, control characters other
  /// than tab, newline and carriage return are dropped, everything else (UTF-8 included) is copied. In attribute
  /// values a server-side include (`<!--…-->`) and an HTML 4 `&{…}` script macro are copied as they are.
  private static func appendEncoded(_ text: UnsafePointer<xmlChar>, isAttribute: Bool, to out: inout ByteWriter) {
    let length = UnsafeRawPointer(text).withMemoryRebound(to: CChar.self, capacity: 1) { strlen($0) }
    var run = 0
    var i = 0
    while true {
      // Eight bytes at a time while none of them needs a look, as in most text; `length` keeps the loads inside.
      while i + 8 <= length, !mayNeedEncoding(UnsafeRawPointer(text + i).loadUnaligned(as: UInt64.self)) {
        i += 8
      }
      let byte = text[i]
      // Copied as they are: every byte but NUL, `<`, `>`, `&` and the control characters other than tab, newline
      // and carriage return, all of which are below 64: one bit each in `specialBytes`.
      if byte >= 64 || Self.specialBytes & (1 << UInt64(byte)) == 0 {
        i += 1
        continue
      }
      out.append(UnsafeBufferPointer(start: text + run, count: i - run))
      switch byte {
      case 0:
        return
      case UInt8(ascii: "<"):
        if isAttribute, text[i + 1] == UInt8(ascii: "!"), text[i + 2] == UInt8(ascii: "-"),
          text[i + 3] == UInt8(ascii: "-"), let end = offset(of: "-->", in: text + i)
        {
          out.append(UnsafeBufferPointer(start: text + i, count: end + 3))
          i += end + 3
        } else {
          out.append(UInt8(ascii: "&"), UInt8(ascii: "l"), UInt8(ascii: "t"), UInt8(ascii: ";"))
          i += 1
        }
      case UInt8(ascii: ">"):
        out.append(UInt8(ascii: "&"), UInt8(ascii: "g"), UInt8(ascii: "t"), UInt8(ascii: ";"))
        i += 1
      case UInt8(ascii: "&"):
        if isAttribute, text[i + 1] == UInt8(ascii: "{"), let close = offset(of: "}", in: text + i) {
          out.append(UnsafeBufferPointer(start: text + i, count: close + 1))
          i += close + 1
        } else {
          out.append(UInt8(ascii: "&"), UInt8(ascii: "a"), UInt8(ascii: "m"), UInt8(ascii: "p"))
          out.append(UInt8(ascii: ";"))
          i += 1
        }
      default:
        // Another control character: dropped.
        i += 1
      }
      run = i
    }
  }

  /// Whether any of the eight bytes of `word` is below 0x20 or is `<`, `>` or `&`. Exact: the classic "has a byte
  /// less than n" and "has a zero byte" tests, which never miss one (a false alarm would only cost the byte loop).
  @inline(__always)
  private static func mayNeedEncoding(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let below = (word &- 0x20 &* ones) & ~word & highs
    let angles = zeroBytes(word ^ (0x3C &* ones)) | zeroBytes(word ^ (0x3E &* ones))
    return below | angles | zeroBytes(word ^ (0x26 &* ones)) != 0
  }

  /// Bit `b` set for the bytes `b` below 64 that `appendEncoded` does not copy as they are: 0x00–0x1F but tab
  /// (0x09), newline (0x0A) and carriage return (0x0D), then `&` (0x26), `<` (0x3C) and `>` (0x3E). A literal, so
  /// the compiler folds it into the loop.
  private static let specialBytes: UInt64 = 0x5000_0040_FFFF_D9FF

  /// Where `needle` first starts in the NUL-terminated `text`, if anywhere.
  private static func offset(of needle: StaticString, in text: UnsafePointer<xmlChar>) -> Int? {
    let pattern = needle.utf8Start
    let count = needle.utf8CodeUnitCount
    var i = 0
    search: while text[i] != 0 {
      for k in 0..<count where text[i + k] != pattern[k] {
        // A NUL in `text` differs from every byte of the pattern, so this never reads past the end.
        i += 1
        continue search
      }
      return i
    }
    return nil
  }

  /// libxml2's `htmlBooleanAttrs`: written as the bare name, without their value.
  private static func isBooleanAttribute(_ name: UnsafePointer<xmlChar>) -> Bool {
    switch lowerFirst(name) {
    case UInt8(ascii: "c"): equalsIgnoringCase(name, "checked") || equalsIgnoringCase(name, "compact")
    case UInt8(ascii: "d"):
      equalsIgnoringCase(name, "declare") || equalsIgnoringCase(name, "defer") || equalsIgnoringCase(name, "disabled")
    case UInt8(ascii: "i"): equalsIgnoringCase(name, "ismap")
    case UInt8(ascii: "m"): equalsIgnoringCase(name, "multiple")
    case UInt8(ascii: "n"):
      equalsIgnoringCase(name, "nohref") || equalsIgnoringCase(name, "noresize")
        || equalsIgnoringCase(name, "noshade") || equalsIgnoringCase(name, "nowrap")
    case UInt8(ascii: "r"): equalsIgnoringCase(name, "readonly")
    case UInt8(ascii: "s"): equalsIgnoringCase(name, "selected")
    default: false
    }
  }

  /// Elements written without an end tag when they have no children: libxml2's HTML 4 table entries that are empty
  /// or save their end tag.
  private static func writesNoEndTag(_ name: UnsafePointer<xmlChar>) -> Bool {
    switch lowerFirst(name) {
    case UInt8(ascii: "a"): equalsIgnoringCase(name, "area")
    case UInt8(ascii: "b"):
      equalsIgnoringCase(name, "br") || equalsIgnoringCase(name, "base") || equalsIgnoringCase(name, "basefont")
    case UInt8(ascii: "c"): equalsIgnoringCase(name, "col")
    case UInt8(ascii: "f"): equalsIgnoringCase(name, "frame")
    case UInt8(ascii: "h"): equalsIgnoringCase(name, "hr")
    case UInt8(ascii: "i"):
      equalsIgnoringCase(name, "img") || equalsIgnoringCase(name, "input") || equalsIgnoringCase(name, "isindex")
    case UInt8(ascii: "l"): equalsIgnoringCase(name, "li") || equalsIgnoringCase(name, "link")
    case UInt8(ascii: "m"): equalsIgnoringCase(name, "meta")
    case UInt8(ascii: "p"): equalsIgnoringCase(name, "param")
    default: false
    }
  }

  /// libxml2's HTML 4 table entries marked empty: written as the start tag alone, children or not.
  private static func isEmptyElement(_ name: UnsafePointer<xmlChar>) -> Bool {
    writesNoEndTag(name) && !equalsIgnoringCase(name, "li")
  }

  @inline(__always)
  private static func lowerFirst(_ name: UnsafePointer<xmlChar>) -> UInt8 {
    let byte = name[0]
    return byte >= 65 && byte <= 90 ? byte + 32 : byte
  }

  /// ASCII case-insensitive equality with a lower-case literal, as libxml2's `xmlStrcasecmp` compares names.
  private static func equalsIgnoringCase(_ raw: UnsafePointer<xmlChar>, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    let expected = text.utf8Start
    for k in 0..<count {
      let byte = raw[k]
      // A NUL ends `raw` early and never matches a letter of the literal.
      guard (byte >= 65 && byte <= 90 ? byte + 32 : byte) == expected[k] else { return false }
    }
    return raw[count] == 0
  }
}

/// A growable byte buffer written without the checks `Array.append` makes per element: the serialiser appends a
/// few bytes at a time, tens of thousands of times a page. Starts in a buffer it does not own (on the caller's
/// stack) and moves to the heap when that is full.
private struct ByteWriter {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  private var ownsBase = false

  init(_ initial: UnsafeMutableBufferPointer<UInt8>) {
    base = initial.baseAddress!
    capacity = initial.count
  }

  func deallocate() {
    if ownsBase { base.deallocate() }
  }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  mutating func removeAll() { count = 0 }

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(extra) }
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    let grown = max(capacity * 2, count + extra)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    bigger.update(from: base, count: count)
    if ownsBase { base.deallocate() }
    base = bigger
    capacity = grown
    ownsBase = true
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ a: UInt8, _ b: UInt8) {
    reserve(2)
    base[count] = a
    base[count + 1] = b
    count += 2
  }

  @inline(__always)
  mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
    reserve(3)
    base[count] = a
    base[count + 1] = b
    base[count + 2] = c
    count += 3
  }

  @inline(__always)
  mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
    reserve(4)
    base[count] = a
    base[count + 1] = b
    base[count + 2] = c
    base[count + 3] = d
    count += 4
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append(cString text: UnsafePointer<UInt8>) {
    let length = UnsafeRawPointer(text).withMemoryRebound(to: CChar.self, capacity: 1) { strlen($0) }
    append(UnsafeBufferPointer(start: text, count: length))
  }
}
