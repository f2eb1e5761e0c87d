import Foundation

/// Small helpers the extra scrapers share, on top of `LinkParsing`.
enum ExtraScraping {
  /// The value of `name` in the query of `href`, nil when there is no href.
  static func queryValue(_ name: String, in href: String?) -> String? {
    href.flatMap { LinkParsing.queryValue(name, in: $0) }
  }

  /// Text with surrounding whitespace removed and inner runs of whitespace (and no-break spaces) collapsed.
  static func collapsed(_ text: String) -> String { text.collapsingWhitespace }

  /// A thread tag for an icon image: id from the given value or the URL fragment, name from the file name.
  static func tag(id: String?, src: String) -> ThreadTag {
    ThreadTag(id: id ?? LinkParsing.fragment(of: src), imageURL: src, imageName: LinkParsing.imageName(from: src))
  }

  /// XPath predicate for "has CSS class `name`".
  static func cls(_ name: String) -> String { HTMLDocument.hasClass(name) }
}
