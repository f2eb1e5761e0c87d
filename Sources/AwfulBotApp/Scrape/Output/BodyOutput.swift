import AwfulScraping

/// A post or announcement body: a plain-text string (`--body text`) or an array of `RichTextOutput` nodes
/// (`--body tree`).
enum BodyOutput: Encodable, Sendable {
  case text(String)
  case tree([RichTextOutput])

  init(_ body: [RichText], format: ScrapeBodyFormat) {
    switch format {
    case .text: self = .text(plainText(body))
    case .tree: self = .tree(RichTextOutput.tree(body))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let text): try container.encode(text)
    case .tree(let nodes): try container.encode(nodes)
    }
  }
}
