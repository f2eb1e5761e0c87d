/// A post body taken apart the way a reader sees it: the quotes it answers and the poster's own words, in the
/// order they were written. Renderers keep the own words first when they must shorten a post.
package struct PostAnatomy: Sendable, Hashable {
  package enum Piece: Sendable, Hashable {
    /// A top-level quote (nested quotes stay inside its body).
    case quote(author: String?, postID: String?, body: [RichText])
    /// Everything between quotes: what the poster wrote.
    case ownWords([RichText])
  }

  package var pieces: [Piece]

  package init(_ body: [RichText]) {
    var pieces: [Piece] = []
    var words: [RichText] = []
    func flushWords() {
      if words.contains(where: { !$0.isBlank }) { pieces.append(.ownWords(words)) }
      words = []
    }
    for node in body {
      switch node {
      case .quote(let author, let postID, let children):
        flushWords()
        pieces.append(.quote(author: author, postID: postID, body: children))
      // The scraper wraps a post's blocks in paragraphs; a paragraph holding a quote is taken apart the same way.
      case .paragraph(let children) where children.contains(where: \.isQuote):
        for child in children {
          if case .quote(let author, let postID, let quoted) = child {
            flushWords()
            pieces.append(.quote(author: author, postID: postID, body: quoted))
          } else {
            words.append(child)
          }
        }
      default:
        words.append(node)
      }
    }
    flushWords()
    self.pieces = pieces
  }

  /// The poster's own words, quotes left out.
  package var ownWords: [RichText] {
    pieces.flatMap { piece -> [RichText] in
      if case .ownWords(let nodes) = piece { return nodes }
      return []
    }
  }

  /// True when the post says nothing of its own: only quotes (or nothing).
  package var isOnlyQuotes: Bool { ownWords.isEmpty }
}

extension RichText {
  package var isQuote: Bool {
    if case .quote = self { return true }
    return false
  }

  /// Whether the node shows nothing (whitespace or a line break between blocks).
  package var isBlank: Bool {
    switch self {
    case .text(let text): text.allSatisfy(\.isWhitespace)
    case .lineBreak: true
    case .paragraph(let children): children.allSatisfy(\.isBlank)
    default: false
    }
  }
}
