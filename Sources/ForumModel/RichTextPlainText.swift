import Foundation

/// How `plainText` shows a spoiler.
package enum SpoilerStyle: Sendable, Hashable {
  /// The spoiler's text, as if it were not hidden (the `scrape` CLI, alert matching).
  case shown
  /// A `[spoiler]` marker instead of the text (chat: nobody should read it by accident).
  case hidden
}

/// How `plainText` shows a quote.
package enum QuoteStyle: Sendable, Hashable {
  /// As `> ` lines under "X posted:".
  case shown
  /// Left out: the poster's own words alone (keyword filters and mention alerts: quoting someone's keyword is not
  /// saying it again, and quotes have their own alert).
  case omitted
}

/// The readable text of a rich-text tree: whitespace collapsed as a browser would, one line per block,
/// quotes as `> ` lines under "X posted:", links as "text (url)", smilies as their code, images and videos as
/// `[image] url` / `[video] url`. Used by chat rendering, filters, alerts and `awfulbot scrape`, so all agree.
package func plainText(_ nodes: [RichText], spoilers: SpoilerStyle = .shown, quotes: QuoteStyle = .shown) -> String {
  var writer = PlainTextWriter(spoilers: spoilers, quotes: quotes)
  writer.write(nodes)
  return writer.output
}

/// Builds the text with browser-like whitespace rules: runs of whitespace become one space, spaces never start or
/// end a line, blocks start on a new line and at most one blank line separates anything.
private struct PlainTextWriter {
  let spoilers: SpoilerStyle
  private(set) var output = ""
  private var pendingSpace = false
  private var pendingNewlines = 0
  private var atLineStart = true
  /// The last thing written was a token ending in a URL: a word right after it needs a space to stay apart.
  private var afterToken = false
  /// `> ` per enclosing quote, written at the start of every line.
  private var linePrefix = ""

  let quotes: QuoteStyle

  init(spoilers: SpoilerStyle, quotes: QuoteStyle) {
    self.spoilers = spoilers
    self.quotes = quotes
  }

  mutating func write(_ nodes: [RichText]) {
    for node in nodes { write(node) }
  }

  mutating func write(_ node: RichText) {
    switch node {
    case .text(let text):
      inline(text)
    case .lineBreak:
      pendingNewlines = min(pendingNewlines + 1, 2)
      pendingSpace = false
    case .paragraph(let children):
      block { $0.write(children) }
    case .bold(let children), .italic(let children), .underline(let children), .strike(let children):
      write(children)
    case .link(let url, let children):
      let label = plainText(children, spoilers: spoilers, quotes: quotes)
      if label.isEmpty || label == url {
        inline(url)
      } else {
        write(children)
        inline(" (\(url))")
      }
    case .image(let url), .thumbnail(let url), .attachment(_, let url):
      token("[image] \(url)")
    case .quote where quotes == .omitted:
      // Kept apart from the words around it, as a block.
      pendingNewlines = max(pendingNewlines, 1)
    case .quote(let author, _, let children):
      block { writer in
        writer.linePrefix += "> "
        if let author, !author.isEmpty {
          writer.inline("\(author) posted:")
          writer.pendingNewlines = max(writer.pendingNewlines, 1)
        }
        writer.write(children)
        writer.linePrefix.removeLast(2)
      }
    case .spoiler(let children):
      switch spoilers {
      case .shown: write(children)
      // No padding: the text around an inline spoiler brings its own spaces ("is [spoiler]." not "is [spoiler] .").
      case .hidden: inline("[spoiler]")
      }
    case .code(let code):
      block { writer in
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
          if offset > 0 { writer.pendingNewlines = max(writer.pendingNewlines, 1) }
          writer.verbatim(String(line))
        }
      }
    case .smilie(let code, _):
      // A smilie is a word, even one starting with ":": spaced from a URL before it ("[image] url :nws:").
      if afterToken { pendingSpace = true }
      inline(code)
    case .video(let url):
      token("[video] \(url)")
    case .list(let items):
      block { writer in
        for item in items {
          writer.pendingNewlines = max(writer.pendingNewlines, 1)
          writer.verbatim("• ")
          writer.write(item)
        }
      }
    }
  }

  private mutating func block(_ body: (inout PlainTextWriter) -> Void) {
    pendingNewlines = max(pendingNewlines, 1)
    pendingSpace = false
    body(&self)
    pendingNewlines = max(pendingNewlines, 1)
    pendingSpace = false
  }

  /// A marker with a URL, spaced from the words around it but not from punctuation after it ("[image] url, and").
  private mutating func token(_ text: String) {
    pendingSpace = true
    verbatim(text)
    afterToken = true
  }

  /// Text that follows HTML whitespace rules.
  private mutating func inline(_ text: String) {
    var word = ""
    for character in text {
      if character.isWhitespace {
        if !word.isEmpty {
          verbatim(word)
          word = ""
        }
        pendingSpace = true
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { verbatim(word) }
  }

  /// Text written as is (code keeps its indentation), after any pending line break or space.
  private mutating func verbatim(_ text: String) {
    if pendingNewlines > 0 && !output.isEmpty {
      for index in 0..<pendingNewlines {
        output += "\n"
        if index < pendingNewlines - 1 {
          // A blank line inside a quote keeps its marker so the quote reads as one block.
          output += linePrefix.trimmingCharacters(in: .whitespaces)
        }
      }
      atLineStart = true
    }
    pendingNewlines = 0
    if atLineStart {
      afterToken = false
      output += linePrefix
      atLineStart = false
      pendingSpace = false
    }
    if afterToken, !pendingSpace, let first = text.first, first.isLetter || first.isNumber {
      pendingSpace = true
    }
    afterToken = false
    if pendingSpace {
      output += " "
      pendingSpace = false
    }
    output += text
  }
}
