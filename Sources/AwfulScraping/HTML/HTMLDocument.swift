import CLibXML2
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

  package init(data: Data, url: URL? = nil, contentTypeCharset: String? = nil) throws {
    let encoding = Self.chooseEncoding(data: data, declared: contentTypeCharset)
    let options = Self.parseOptions
    let parsed: htmlDocPtr? = data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress, raw.count > 0 else { return nil }
      return htmlReadMemory(
        base.assumingMemoryBound(to: CChar.self), Int32(raw.count), url?.absoluteString, encoding, options)
    }
    guard let parsed else {
      throw ScrapeError(page: "HTML", reason: data.isEmpty ? "the page is empty" : "libxml2 could not parse it")
    }
    Self.repairBodyAttributes(parsed, data: data)
    self.pointer = parsed
    self.encoding = encoding
    self.url = url
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
    if let declared = normalizedCharset(declared) { return declared }
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
