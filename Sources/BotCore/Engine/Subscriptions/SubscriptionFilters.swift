import ChatBridge
import ForumModel

/// Which posts of a subscription reach the room. Empty lists mean "no restriction"; names and keywords compare
/// case-insensitively.
package struct SubscriptionFilters: Sendable, Hashable, Codable {
  /// Only posts by these authors (when not empty).
  package var includeAuthors: [String]
  /// Never posts by these authors.
  package var excludeAuthors: [String]
  /// Only posts whose text contains one of these (when not empty).
  package var keywords: [String]
  /// Only posts by the thread's original poster.
  package var opOnly: Bool

  package init(
    includeAuthors: [String] = [], excludeAuthors: [String] = [], keywords: [String] = [], opOnly: Bool = false
  ) {
    self.includeAuthors = includeAuthors
    self.excludeAuthors = excludeAuthors
    self.keywords = keywords
    self.opOnly = opOnly
  }

  package static let none = SubscriptionFilters()

  package var isEmpty: Bool { includeAuthors.isEmpty && excludeAuthors.isEmpty && keywords.isEmpty && !opOnly }

  /// Whether a post passes every filter.
  package func admits(_ post: Post) -> Bool {
    admits(
      author: post.author.name, isOriginalPoster: post.author.isOriginalPoster,
      text: { plainText(post.body, quotes: .omitted) })
  }

  /// Filters on the parts every relayed item has (a new thread has a title, not a body).
  func admits(author: String?, isOriginalPoster: Bool, text: () -> String) -> Bool {
    let name = author?.lowercased() ?? ""
    if opOnly && !isOriginalPoster { return false }
    if !includeAuthors.isEmpty && !includeAuthors.contains(where: { $0.lowercased() == name }) { return false }
    if excludeAuthors.contains(where: { $0.lowercased() == name }) { return false }
    if !keywords.isEmpty {
      let haystack = text().lowercased()
      if !keywords.contains(where: { haystack.contains($0.lowercased()) }) { return false }
    }
    return true
  }

  /// "op only, by A, not by B, mentioning K": for listings.
  package var summary: String {
    var parts: [String] = []
    if opOnly { parts.append("OP only") }
    if !includeAuthors.isEmpty { parts.append("by " + includeAuthors.joined(separator: ", ")) }
    if !excludeAuthors.isEmpty { parts.append("not by " + excludeAuthors.joined(separator: ", ")) }
    if !keywords.isEmpty { parts.append("mentioning " + keywords.map { "“\($0)”" }.joined(separator: ", ")) }
    return parts.joined(separator: "; ")
  }
}
