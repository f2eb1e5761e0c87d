import CLibXML2
import ForumModel

/// What the post-body converter does with an element, read from its tag name without making a `String` of it and
/// matching it against fifty names one after the other (the converter asks for every element of every post).
enum BodyElement {
  case lineBreak
  case bold
  case italic
  case underline
  case strike
  case link
  case image
  case preformatted
  case code
  case blockquote
  case list
  case media
  case span
  case div
  /// Block elements whose content becomes a paragraph.
  case paragraph
  /// Elements that contribute nothing (scripts, forms' controls, metadata).
  case ignored
  /// Anything else contributes its children.
  case other

  init(_ node: xmlNodePtr) {
    guard let name = node.pointee.name, let key = Self.key(name) else {
      self = .other
      return
    }
    self = Self.byName[key] ?? .other
  }

  /// Tag names up to 16 bytes packed into two integers; nil for longer names (none of them is special).
  private struct Key: Hashable {
    var low: UInt64
    var high: UInt64
  }

  private static func key(_ name: UnsafePointer<xmlChar>) -> Key? {
    var key = Key(low: 0, high: 0)
    var i = 0
    while name[i] != 0 {
      guard i < 16 else { return nil }
      if i < 8 {
        key.low |= UInt64(name[i]) << (8 * UInt64(i))
      } else {
        key.high |= UInt64(name[i]) << (8 * UInt64(i - 8))
      }
      i += 1
    }
    return key
  }

  private static func key(_ name: String) -> Key {
    var bytes = Array(name.utf8)
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { key($0.baseAddress!)! }
  }

  private static let byName: [Key: BodyElement] = {
    let groups: [(BodyElement, [String])] = [
      (.lineBreak, ["br"]),
      (.bold, ["b", "strong"]),
      (.italic, ["i", "em", "cite"]),
      (.underline, ["u", "ins"]),
      (.strike, ["s", "strike", "del"]),
      (.link, ["a"]),
      (.image, ["img"]),
      (.preformatted, ["pre"]),
      (.code, ["code", "tt"]),
      (.blockquote, ["blockquote"]),
      (.list, ["ul", "ol"]),
      (.media, ["iframe", "embed", "video", "object"]),
      (.span, ["span"]),
      (.div, ["div"]),
      (
        .paragraph,
        [
          "p", "center", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "table", "tr", "li", "dl", "dd",
          "dt", "fieldset", "figure", "figcaption", "address", "form",
        ]
      ),
      (
        .ignored,
        ["script", "style", "noscript", "head", "title", "input", "select", "textarea", "button", "hr", "meta", "link"]
      ),
    ]
    var table: [Key: BodyElement] = [:]
    for (element, names) in groups {
      for name in names { table[key(name)] = element }
    }
    return table
  }()
}
