import Foundation

/// Keeps a message within the transport's `maxMessageBytes` (both the plain body and the HTML, each measured in
/// UTF-8 bytes). Renderers first shrink what they show; this is the last resort that always succeeds.
package enum MessageFit {
  package static func fits(_ message: OutgoingMessage, _ capabilities: ChatCapabilities) -> Bool {
    let limit = capabilities.maxMessageBytes
    return message.text.utf8.count <= limit && (message.html?.utf8.count ?? 0) <= limit
  }

  /// Drops HTML that is too large (the plain body says the same) and cuts the plain body between characters,
  /// keeping the message's link at the end when there is room for it.
  package static func forceFit(_ message: OutgoingMessage, _ capabilities: ChatCapabilities) -> OutgoingMessage {
    let limit = max(capabilities.maxMessageBytes, 0)
    var fitted = message
    if let html = fitted.html, html.utf8.count > limit { fitted.html = nil }
    guard fitted.text.utf8.count > limit else { return fitted }
    let ellipsis = "…"
    if let link = fitted.link, link.utf8.count + ellipsis.utf8.count + 1 < limit {
      var body = fitted.text
      if body.hasSuffix(link) { body.removeLast(link.count) }
      let room = limit - link.utf8.count - ellipsis.utf8.count - 1
      let cut = ChatText.prefix(body, maxBytes: room).trimmingCharacters(in: .whitespacesAndNewlines)
      fitted.text = cut + ellipsis + "\n" + link
    } else {
      let cut = ChatText.prefix(fitted.text, maxBytes: max(limit - ellipsis.utf8.count, 0))
      fitted.text = limit >= ellipsis.utf8.count ? cut + ellipsis : ChatText.prefix(fitted.text, maxBytes: limit)
    }
    return fitted
  }
}
