import CLibXML2
import ForumModel
import Foundation

/// A parsed HTML page. Owns the libxml2 document and frees it; nodes keep their document alive.
///
/// Parsing uses libxml2's HTML parser in recover mode with network access off, so broken markup still yields a tree
/// and nothing is ever fetched. The bytes are decoded in the page's charset: the `Content-Type` charset when given,
/// else a `<meta>` charset, else windows-1252 (the forum's encoding). ISO-8859-1 is read as windows-1252, as browsers
/// do, because the forum labels windows-1252 pages that way.
package final class HTMLDocument {
  let pointer: htmlDocPtr
  private var xpathContext: xmlXPathContextPtr?
  /// The charset the bytes were decoded with.
  package let encoding: String
  /// The URL the page came from, used to resolve relative links and read query values.
  package let url: URL?

  /// libxml2 options for every page. Not `HTML_PARSE_NOBLANKS`: it drops whitespace-only text after elements such as
  /// `<img>`, which glues adjacent smilies and words together in post bodies.
  package static let parseOptions = Int32(
    HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
      | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue)

  package convenience init(data: Data, url: URL? = nil, contentTypeCharset: String? = nil) throws {
    try self.init(bytes: data, url: url, contentTypeCharset: contentTypeCharset)
  }

  /// Parses bytes in place, whatever holds them: the forum client has the body as `[UInt8]`, and copying each page
  /// into a `Data` first was one more large allocation per request.
  package init<Bytes: ContiguousBytes>(bytes: Bytes, url: URL? = nil, contentTypeCharset: String? = nil) throws {
    let (parsed, encoding, isEmpty) = bytes.withUnsafeBytes { raw -> (htmlDocPtr?, String, Bool) in
      let encoding = Self.chooseEncoding(bytes: raw, declared: contentTypeCharset)
      guard raw.count > 0 else { return (nil, encoding, true) }
      // The page list's <select> is left out where the page's own attributes say the same (PageListTrim).
      let trim = PageListTrim.ranges(in: raw.bindMemory(to: UInt8.self))
      if trim.isEmpty { return (Self.parse(raw, url: url, encoding: encoding), encoding, false) }
      let kept = PageListTrim.removing(trim, from: raw.bindMemory(to: UInt8.self))
      return (kept.withUnsafeBytes { Self.parse($0, url: url, encoding: encoding) }, encoding, false)
    }
    guard let parsed else {
      throw ScrapeError(page: "HTML", reason: isEmpty ? "the page is empty" : "libxml2 could not parse it")
    }
    self.pointer = parsed
    self.encoding = encoding
    self.url = url
  }

  private static func parse(_ raw: UnsafeRawBufferPointer, url: URL?, encoding: String) -> htmlDocPtr? {
    guard let base = raw.baseAddress else { return nil }
    let parsed = htmlReadMemory(
      base.assumingMemoryBound(to: CChar.self), Int32(raw.count), url?.absoluteString, encoding, parseOptions)
    if let parsed { repairBodyAttributes(parsed, bytes: raw) }
    return parsed
  }

  package convenience init(string: String, url: URL? = nil) throws {
    try self.init(data: Data(string.utf8), url: url, contentTypeCharset: "utf-8")
  }

  deinit {
    if let xpathContext { xmlXPathFreeContext(xpathContext) }
    xmlFreeDoc(pointer)
  }

  /// The root element (`<html>`), if any.
  package var root: HTMLNode? {
    xmlDocGetRootElement(pointer).map { HTMLNode(document: self, pointer: $0) }
  }

  /// Nodes matching `xpath`, evaluated relative to `context` (the document when nil), in document order.
  package func nodes(_ xpath: String, in context: HTMLNode? = nil) -> [HTMLNode] {
    guard let ctx = contextPointer() else { return [] }
    ctx.pointee.node = context?.pointer ?? xmlDocGetRootElement(pointer)
    guard let result = xmlXPathEvalExpression(xpath, ctx) else { return [] }
    defer { xmlXPathFreeObject(result) }
    guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
    let count = Int(set.pointee.nodeNr)
    var out: [HTMLNode] = []
    out.reserveCapacity(count)
    for i in 0..<count {
      if let node = set.pointee.nodeTab[i] { out.append(HTMLNode(document: self, pointer: node)) }
    }
    return out
  }

  /// The first node matching `xpath`.
  package func first(_ xpath: String, in context: HTMLNode? = nil) -> HTMLNode? {
    nodes(xpath, in: context).first
  }

  /// Evaluates an XPath expression that yields a string (`string(...)`, `normalize-space(...)`).
  package func string(_ xpath: String, in context: HTMLNode? = nil) -> String {
    guard let ctx = contextPointer() else { return "" }
    ctx.pointee.node = context?.pointer ?? xmlDocGetRootElement(pointer)
    guard let result = xmlXPathEvalExpression(xpath, ctx) else { return "" }
    defer { xmlXPathFreeObject(result) }
    guard let chars = xmlXPathCastToString(result) else { return "" }
    defer { awful_xml_free(chars) }
    return String(cString: chars)
  }

  private func contextPointer() -> xmlXPathContextPtr? {
    if let xpathContext { return xpathContext }
    xpathContext = xmlXPathNewContext(pointer)
    return xpathContext
  }

  /// Picks the charset: declared (HTTP header) first, then a `<meta>` in the first 2 KB, then windows-1252.
  static func chooseEncoding(data: Data, declared: String?) -> String {
    data.withUnsafeBytes { chooseEncoding(bytes: $0, declared: declared) }
  }

  static func chooseEncoding(bytes data: UnsafeRawBufferPointer, declared: String?) -> String {
    if let declared = normalizedCharset(declared) { return declared }
    switch metaCharset(in: data) {
    case .name(let name):
      if let meta = normalizedCharset(name) { return meta }
      return "windows-1252"
    case .none:
      return "windows-1252"
    case .needsText:
      return chooseEncodingFromText(data)
    }
  }

  private enum MetaCharset {
    case name(String)
    case none
    /// Non-ASCII text next to the name: only the character-level reading below decides it the same way.
    case needsText
  }

  /// The `charset=` name of the first 2 KB read byte by byte, without decoding and lower-casing the whole head.
  /// Gives up (`.needsText`) when a non-ASCII byte borders the name, where characters and bytes could disagree.
  private static func metaCharset(in data: UnsafeRawBufferPointer) -> MetaCharset {
    do {
      let bytes = UnsafeRawBufferPointer(rebasing: data.prefix(2048)).bindMemory(to: UInt8.self)
      let pattern: StaticString = "charset="
      let count = pattern.utf8CodeUnitCount
      func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
      var found: Int?
      var i = 0
      search: while i + count <= bytes.count {
        for k in 0..<count where lower(bytes[i + k]) != pattern.utf8Start[k] {
          i += 1
          continue search
        }
        found = i + count
        break
      }
      guard var index = found else { return .none }
      while index < bytes.count,
        bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
          || bytes[index] == UInt8(ascii: " ")
      {
        index += 1
      }
      var name: [UInt8] = []
      while index < bytes.count {
        let byte = lower(bytes[index])
        let isNameByte =
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        guard isNameByte else { break }
        name.append(byte)
        index += 1
      }
      if index < bytes.count, bytes[index] >= 0x80 { return .needsText }
      return .name(String(decoding: name, as: UTF8.self))
    }
  }

  /// The character-level reading of the `<meta>` charset, for heads where bytes alone are not conclusive.
  private static func chooseEncodingFromText(_ data: UnsafeRawBufferPointer) -> String {
    let head = String(decoding: data.prefix(2048), as: UTF8.self).lowercased()
    if let range = head.utf8Range(of: "charset=") {
      let rest = head[range.upperBound...].drop(while: { $0 == "\"" || $0 == "'" || $0 == " " })
      let name = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      if let meta = normalizedCharset(String(name)) { return meta }
    }
    return "windows-1252"
  }

  static func normalizedCharset(_ raw: String?) -> String? {
    guard let raw = raw?.trimmingCharacters(in: .whitespacesAndNewlines.union(["\"", "'"])).lowercased(),
      !raw.isEmpty
    else { return nil }
    switch raw {
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "us-ascii", "ascii", "cp1252", "windows-1252":
      return "windows-1252"
    case "utf8", "utf-8": return "utf-8"
    default: return raw
    }
  }

  /// XPath predicate for "has CSS class `name`": `contains(concat(' ', normalize-space(@class), ' '), ' name ')`.
  package static func hasClass(_ name: String) -> String {
    "contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')"
  }
}
