import ChatBridge
import Foundation

/// Builds HTML that can only contain what `HTMLAllowList` allows: text is always escaped, tags and attributes
/// outside the list are skipped (their content kept as text), and links are http(s) only.
package struct HTMLWriter: Sendable {
  package private(set) var html = ""

  package init() {}

  /// Escaped text, made chat-safe (controls stripped, mentions defused).
  package mutating func text(_ text: String) {
    html += ChatText.escapeHTML(ChatText.safe(text))
  }

  /// Markup the caller built with this writer (already safe).
  package mutating func append(_ other: HTMLWriter) {
    html += other.html
  }

  package mutating func element(
    _ tag: String, attributes: KeyValuePairs<String, String> = [:], _ content: (inout HTMLWriter) -> Void = { _ in }
  ) {
    guard HTMLAllowList.allows(tag: tag) else {
      content(&self)
      return
    }
    html += "<\(tag)"
    for (name, value) in attributes where HTMLAllowList.allows(tag: tag, attribute: name) {
      if name == "href" {
        guard let link = HTMLAllowList.safeLink(value) else { continue }
        html += " href=\"\(ChatText.escapeHTML(link))\""
      } else {
        html += " \(name)=\"\(ChatText.escapeHTML(ChatText.safeLine(value)))\""
      }
    }
    html += ">"
    if HTMLAllowList.voidTags.contains(tag) { return }
    content(&self)
    html += "</\(tag)>"
  }

  /// A link when the URL is safe, else just its content. Links to Matrix users or rooms (`https://matrix.to/#/…`,
  /// `matrix:` URIs) would become mention pills: their content is written as text instead.
  package mutating func link(_ url: String, _ content: (inout HTMLWriter) -> Void) {
    if HTMLAllowList.safeLink(url) != nil && !HTMLAllowList.isPill(url) {
      element("a", attributes: ["href": url], content)
    } else {
      content(&self)
    }
  }
}
