import ChatBridge
import ForumModel
import Foundation

/// The forums of the index as a flat list (groups left out: they hold no threads), for lookups by id or name.
package struct ForumDirectory: Sendable {
  package enum Match: Sendable {
    case found(ForumNode)
    case none
    case ambiguous([ForumNode])
  }

  package var forums: [ForumNode]

  package init(index: ForumIndex) {
    var flat: [ForumNode] = []
    func walk(_ nodes: [ForumNode]) {
      for node in nodes {
        if node.hasThreads { flat.append(node) }
        walk(node.subforums)
      }
    }
    walk(index.groups)
    self.forums = flat
  }

  /// Forums whose name (or short name) contains `text`, case-insensitively; all when `text` is empty.
  package func search(_ text: String) -> [ForumNode] {
    let needle = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard !needle.isEmpty else { return forums }
    return forums.filter { names(of: $0).contains { $0.contains(needle) } }
  }

  package func match(_ text: String) -> Match {
    let needle = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let node = forums.first(where: { $0.id == needle }) { return .found(node) }
    let exact = forums.filter { names(of: $0).contains(needle) }
    if exact.count == 1 { return .found(exact[0]) }
    let partial = search(needle)
    switch partial.count {
    case 0: return .none
    case 1: return .found(partial[0])
    default: return .ambiguous(exact.count > 1 ? exact : partial)
    }
  }

  private func names(of node: ForumNode) -> [String] {
    [node.title.lowercased()] + (node.shortTitle.map { [$0.lowercased()] } ?? [])
  }
}
