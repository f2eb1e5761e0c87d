import Foundation

/// The tags of an HTML text with their attribute names, for tests that check what a renderer lets through.
package enum HTMLTags {
  package static func tags(in html: String) -> [(name: String, attributes: [String])] {
    let tag = try! NSRegularExpression(pattern: #"<(/?)([a-zA-Z0-9]+)([^>]*)>"#)
    let attribute = try! NSRegularExpression(pattern: #"\s([a-zA-Z-]+)="[^"]*""#)
    let ns = html as NSString
    return tag.matches(in: html, range: NSRange(location: 0, length: ns.length)).map { match in
      let name = ns.substring(with: match.range(at: 2))
      let rest = ns.substring(with: match.range(at: 3))
      let names = attribute.matches(in: rest, range: NSRange(location: 0, length: (rest as NSString).length)).map {
        (rest as NSString).substring(with: $0.range(at: 1))
      }
      return (name, names)
    }
  }
}
