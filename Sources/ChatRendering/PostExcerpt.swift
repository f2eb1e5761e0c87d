import ChatBridge
import ForumModel
import Foundation

/// A post body shortened for chat: about `maxCharacters` of visible text, the structure kept (a quote stays a
/// quote) so every rendering of one excerpt says the same thing.
///
/// The poster's own words come first in the budget: each quote is shortened under a small budget of its own
/// ("Alice posted: the first words…") and quotes inside quotes are left out, so a reply that opens with a long quote
/// still shows its answer. A post that is only quotes shows them with the whole budget, and says so.
package struct PostExcerpt: Sendable, Hashable {
  package var nodes: [RichText]
  /// Something was left out: the reader needs the link for the rest.
  package var wasCut: Bool
  /// The post has no words of its own.
  package var onlyQuotes: Bool
  /// The poster's own words were cut (not only a quote shortened): the excerpt stops before the post does.
  package var ownWordsWereCut: Bool

  /// What a quote may spend at most when the post has words of its own.
  package static let quoteBudget = 80
  /// What non-text nodes count for: roughly the length of their plain-text marker.
  private static let markerCost = 10

  package init(nodes: [RichText], wasCut: Bool, onlyQuotes: Bool = false, ownWordsWereCut: Bool? = nil) {
    self.nodes = nodes
    self.wasCut = wasCut
    self.onlyQuotes = onlyQuotes
    self.ownWordsWereCut = ownWordsWereCut ?? wasCut
  }

  package init(_ body: [RichText], maxCharacters: Int) {
    let budget = max(maxCharacters, 0)
    let anatomy = PostAnatomy(body)
    let onlyQuotes = anatomy.isOnlyQuotes
    let quotes = anatomy.pieces.filter {
      if case .quote = $0 { return true }
      return false
    }.count
    // Own words get what quotes leave, and never less than half; quotes alone share the whole budget.
    let perQuote =
      onlyQuotes
      ? budget / max(quotes, 1)
      : min(Self.quoteBudget, max(budget / (4 * max(quotes, 1)), 20))
    var wasCut = false
    var shortenedQuotes: [Int: RichText] = [:]
    var spentOnQuotes = 0
    for (offset, piece) in anatomy.pieces.enumerated() {
      guard case .quote(let author, let postID, let quoted) = piece else { continue }
      var quoteBudget = perQuote
      var quoteWasCut = false
      let withoutNested = quoted.filter { !$0.isQuote }
      let kept = Self.cut(withoutNested, budget: &quoteBudget, wasCut: &quoteWasCut)
      // A quote inside the quote is left out: that is a cut too (the reader follows the link for it).
      if withoutNested.count != quoted.count { quoteWasCut = true }
      spentOnQuotes += perQuote - max(quoteBudget, 0)
      wasCut = wasCut || quoteWasCut
      shortenedQuotes[offset] = .quote(author: author, postID: postID, kept)
    }
    var ownBudget = max(budget - spentOnQuotes, budget / 2)
    var ownWasCut = false
    var nodes: [RichText] = []
    for (offset, piece) in anatomy.pieces.enumerated() {
      switch piece {
      case .quote:
        if let quote = shortenedQuotes[offset] { nodes.append(quote) }
      case .ownWords(let words):
        if ownWasCut || ownBudget <= 0 {
          ownWasCut = true
          continue
        }
        nodes += Self.cut(words, budget: &ownBudget, wasCut: &ownWasCut)
      }
    }
    self.init(nodes: nodes, wasCut: wasCut || ownWasCut, onlyQuotes: onlyQuotes, ownWordsWereCut: ownWasCut)
  }

  private static func cut(_ nodes: [RichText], budget: inout Int, wasCut: inout Bool) -> [RichText] {
    var result: [RichText] = []
    for node in nodes {
      if budget <= 0 {
        if !isEmpty(node) { wasCut = true }
        if wasCut { break }
        continue
      }
      if let kept = cut(node, budget: &budget, wasCut: &wasCut) { result.append(kept) }
      if wasCut { break }
    }
    return result
  }

  private static func cut(_ node: RichText, budget: inout Int, wasCut: inout Bool) -> RichText? {
    switch node {
    case .text(let text):
      return .text(cutText(text, collapsing: true, budget: &budget, wasCut: &wasCut))
    case .code(let code):
      return .code(cutText(code, collapsing: false, budget: &budget, wasCut: &wasCut))
    case .lineBreak:
      budget -= 1
      return node
    case .smilie(let code, _):
      budget -= code.count
      return node
    case .image, .thumbnail, .video, .attachment:
      budget -= markerCost
      return node
    case .paragraph(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.paragraph)
    case .bold(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.bold)
    case .italic(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.italic)
    case .underline(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.underline)
    case .strike(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.strike)
    case .spoiler(let children):
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map(RichText.spoiler)
    case .link(let url, let children):
      if children.isEmpty {
        budget -= min(url.count, markerCost * 4)
        return node
      }
      return nonEmpty(cut(children, budget: &budget, wasCut: &wasCut)).map { .link(url: url, $0) }
    case .quote(let author, let postID, let children):
      budget -= (author?.count ?? 0) + markerCost
      let kept = cut(children, budget: &budget, wasCut: &wasCut)
      return .quote(author: author, postID: postID, kept)
    case .list(let items):
      var keptItems: [[RichText]] = []
      for item in items {
        if budget <= 0 {
          wasCut = true
          break
        }
        let kept = cut(item, budget: &budget, wasCut: &wasCut)
        if !kept.isEmpty { keptItems.append(kept) }
        if wasCut { break }
      }
      return keptItems.isEmpty ? nil : .list(keptItems)
    }
  }

  static func nonEmpty(_ nodes: [RichText]) -> [RichText]? {
    nodes.isEmpty ? nil : nodes
  }

  /// Whether a node shows nothing (whitespace between blocks), so cutting before it is not a cut.
  private static func isEmpty(_ node: RichText) -> Bool {
    switch node {
    case .text(let text): text.allSatisfy(\.isWhitespace)
    case .lineBreak: true
    default: false
    }
  }

  /// Cuts text to the budget, at a word boundary when one is near, and marks the cut with "…".
  private static func cutText(_ text: String, collapsing: Bool, budget: inout Int, wasCut: inout Bool) -> String {
    let visible = collapsing ? text.split(whereSeparator: \.isWhitespace).joined(separator: " ") : text
    if visible.count <= budget {
      budget -= visible.count
      return text
    }
    wasCut = true
    var kept = String(visible.prefix(budget))
    if let space = kept.lastIndex(where: \.isWhitespace), kept.distance(from: space, to: kept.endIndex) < 30 {
      kept = String(kept[..<space])
    }
    budget = 0
    while kept.last?.isWhitespace == true { kept.removeLast() }
    return kept + "…"
  }
}
