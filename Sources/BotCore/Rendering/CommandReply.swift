import Foundation

/// A command's answer as lines of parts, so one answer renders as plain text (links written out) and as HTML
/// (links clickable) without handlers knowing the transport.
package struct CommandReply: Sendable, Hashable {
  package enum Part: Sendable, Hashable {
    case text(String)
    case bold(String)
    /// A link: HTML shows an anchor; plain text shows the label in place and the URL at the end of the line
    /// (a URL in the middle of a line is hard to read), or the URL in place when there is no label.
    case link(label: String, url: String)
    /// Text shown as code (command syntax).
    case code(String)
  }

  package var lines: [[Part]]

  package init(lines: [[Part]] = []) {
    self.lines = lines
  }

  /// A one-line answer.
  package init(_ text: String) {
    self.lines = [[.text(text)]]
  }

  package mutating func add(_ parts: Part...) {
    lines.append(parts)
  }

  package mutating func add(_ text: String) {
    lines.append([.text(text)])
  }

  package var plainText: String {
    lines.map { line in
      var text = ""
      var trailingURLs: [String] = []
      for part in line {
        switch part {
        case .text(let value), .bold(let value), .code(let value): text += ChatText.safe(value)
        case .link(let label, let url) where label.isEmpty: text += url
        case .link(let label, let url):
          text += ChatText.safe(label)
          trailingURLs.append(url)
        }
      }
      return ([text.trimmingCharacters(in: .whitespaces)] + trailingURLs).joined(separator: " ")
    }.joined(separator: "\n")
  }

  package var html: String {
    var writer = HTMLWriter()
    for (index, line) in lines.enumerated() {
      if index > 0 { writer.element("br") }
      for part in line {
        switch part {
        case .text(let text): writer.text(text)
        case .bold(let text): writer.element("b") { $0.text(text) }
        case .code(let text): writer.element("code") { $0.text(text) }
        case .link(let label, let url): writer.link(url) { $0.text(label.isEmpty ? url : label) }
        }
      }
    }
    return writer.html
  }

  /// The reply as a message answering `messageID`, within the transport's size limit (a long list is cut with
  /// "…" rather than refused).
  package func message(inReplyTo messageID: String?, capabilities: ChatCapabilities) -> OutgoingMessage {
    var message = OutgoingMessage(
      kind: .reply, text: plainText, html: capabilities.html ? html : nil, inReplyTo: messageID)
    var shown = lines.count
    while !MessageFit.fits(message, capabilities) && shown > 1 {
      shown -= 1
      var shorter = CommandReply(lines: Array(lines.prefix(shown)))
      shorter.add("… (\(lines.count - shown) more lines not shown)")
      message.text = shorter.plainText
      message.html = capabilities.html ? shorter.html : nil
    }
    return MessageFit.forceFit(message, capabilities)
  }
}
