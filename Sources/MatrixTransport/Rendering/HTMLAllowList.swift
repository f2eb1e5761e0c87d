import ChatBridge
import Foundation

/// The only HTML the bot ever sends: these tags with these attributes. Matrix clients render a subset of HTML; the
/// bot emits a smaller one so nothing a forum post contains can become script, frames, styles or tracking images.
package enum HTMLAllowList {
  package static let tags: [String: Set<String>] = [
    "b": [], "i": [], "u": [], "s": [], "del": [],
    "a": ["href"],
    "blockquote": [], "code": [], "pre": [], "br": [], "p": [],
    "ul": [], "li": [],
    "span": ["data-mx-spoiler"],
  ]

  /// Tags without content.
  static let voidTags: Set<String> = ["br"]

  /// Link schemes a chat client may open: anything else (`javascript:`, `data:`, `file:`) is dropped.
  package static let linkSchemes: Set<String> = ["http", "https"]

  package static func allows(tag: String, attribute: String? = nil) -> Bool {
    guard let attributes = tags[tag] else { return false }
    guard let attribute else { return true }
    return attributes.contains(attribute)
  }

  /// The URL when it is an absolute http(s) URL with a host, else nil.
  package static func safeLink(_ url: String) -> String? {
    let trimmed = ChatText.stripControls(url).trimmingCharacters(in: .whitespacesAndNewlines)
    // Characters that would end an attribute or a tag in a careless consumer never belong in a link we send.
    guard !trimmed.contains(where: { $0.isWhitespace || "\"'<>`".contains($0) }) else { return nil }
    guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
      linkSchemes.contains(scheme), let host = components.host, !host.isEmpty
    else { return nil }
    return trimmed
  }

  /// True for links that Matrix clients render as mention pills.
  package static func isPill(_ href: String) -> Bool {
    let lowered = ChatText.stripControls(href).trimmingCharacters(in: .whitespaces).lowercased()
    return lowered.hasPrefix("matrix:") || lowered.hasPrefix("https://matrix.to/")
      || lowered.hasPrefix("http://matrix.to/")
  }
}
