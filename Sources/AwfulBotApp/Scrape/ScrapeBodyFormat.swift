import ForumModel

/// How `awfulbot scrape` prints post, announcement and message bodies.
package enum ScrapeBodyFormat: String, Sendable, Hashable, CaseIterable {
  /// Readable plain text (`plainText(_:)`), the same text chat and alerts use.
  case text
  /// The rich-text tree as tagged JSON objects (`{"type":"quote","author":…,"children":[…]}`).
  case tree

  /// The body form the models encode in (`RichTextBody`).
  var richTextForm: RichTextBodyForm {
    switch self {
    case .text: .plainText
    case .tree: .taggedTree
    }
  }
}
