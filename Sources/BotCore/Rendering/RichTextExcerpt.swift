import AwfulScraping
import Foundation

/// Cuts a rich-text tree to about `maxCharacters` of visible text, keeping the structure (a quote stays a quote) so
/// the plain and HTML renderings of one excerpt say the same thing.
package enum RichTextExcerpt {
  /// What non-text nodes count for: roughly the length of their plain-text marker.
  private static let markerCost = 10

  package static func cut(_ nodes: [RichText], maxCharacters: Int) -> (nodes: [RichText], wasCut: Bool) {
    var budget = max(maxCharacters, 0)
    var wasCut = false
    let result = cut(nodes, budget: &budget, wasCut: &wasCut)
    return (result, wasCut)
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
    case .image, .video:
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

  private static func nonEmpty(_ nodes: [RichText]) -> [RichText]? {
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
