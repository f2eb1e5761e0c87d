import ChatBridge
import ForumModel

extension RichText {
  /// Authors of every quote in the tree, nested quotes included.
  static func quotedAuthors(in nodes: [RichText]) -> [String] {
    var authors: [String] = []
    forEachQuote(in: nodes) { author, _ in
      if let author { authors.append(author) }
    }
    return authors
  }

  /// The forum ids of the posts quoted in the tree, nested quotes included, each once.
  static func quotedPostIDs(in nodes: [RichText]) -> Set<String> {
    var ids: Set<String> = []
    forEachQuote(in: nodes) { _, postID in
      if let postID { ids.insert(postID) }
    }
    return ids
  }

  /// Calls `visit` with the author and post id of every quote, outer quotes before the quotes inside them.
  private static func forEachQuote(in nodes: [RichText], _ visit: (String?, String?) -> Void) {
    for node in nodes {
      switch node {
      case .quote(let author, let postID, let children):
        visit(author, postID)
        forEachQuote(in: children, visit)
      case .paragraph(let children), .bold(let children), .italic(let children), .underline(let children),
        .strike(let children), .spoiler(let children), .link(_, let children):
        forEachQuote(in: children, visit)
      case .list(let items):
        for item in items { forEachQuote(in: item, visit) }
      case .text, .lineBreak, .image, .thumbnail, .code, .smilie, .video, .attachment: break
      }
    }
  }
}
