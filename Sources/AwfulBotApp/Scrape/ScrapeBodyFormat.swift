/// How `awfulbot scrape` prints post and announcement bodies.
package enum ScrapeBodyFormat: String, Sendable, Hashable, CaseIterable {
  /// Readable plain text (`plainText(_:)`), the same text chat and alerts use.
  case text
  /// The rich-text tree as tagged JSON objects (`{"type":"quote","author":…,"children":[…]}`).
  case tree
}
