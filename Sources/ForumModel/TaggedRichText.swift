import Foundation

/// One node of a body as tagged JSON, `{"type": …}` plus the fields of that type: a flat form a reader can follow,
/// where the synthesised `RichText` coding nests each case under its name with positional `_0` keys.
///
/// | type | fields |
/// |---|---|
/// | `text` | `text` |
/// | `lineBreak` | — |
/// | `paragraph`, `bold`, `italic`, `underline`, `strike`, `spoiler` | `children` |
/// | `link` | `url`, `children` |
/// | `image`, `thumbnail`, `video` | `url` |
/// | `attachment` | `id`, `url` |
/// | `quote` | `author`, `postID` (each left out when unknown), `children` |
/// | `code` | `text` |
/// | `smilie` | `code`, `url` (left out when unknown) |
/// | `list` | `items`: an array of arrays of nodes |
struct TaggedRichText: Encodable, Sendable {
  let node: RichText

  init(_ node: RichText) {
    self.node = node
  }

  static func tree(_ nodes: [RichText]) -> [TaggedRichText] { nodes.map(TaggedRichText.init) }

  private enum Key: String, CodingKey {
    case type, text, children, url, author, postID, code, items, id
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch node {
    case .text(let text):
      try container.encode("text", forKey: .type)
      try container.encode(text, forKey: .text)
    case .lineBreak:
      try container.encode("lineBreak", forKey: .type)
    case .paragraph(let children):
      try encodeChildren("paragraph", children, into: &container)
    case .bold(let children):
      try encodeChildren("bold", children, into: &container)
    case .italic(let children):
      try encodeChildren("italic", children, into: &container)
    case .underline(let children):
      try encodeChildren("underline", children, into: &container)
    case .strike(let children):
      try encodeChildren("strike", children, into: &container)
    case .spoiler(let children):
      try encodeChildren("spoiler", children, into: &container)
    case .link(let url, let children):
      try encodeChildren("link", children, into: &container)
      try container.encode(url, forKey: .url)
    case .image(let url):
      try container.encode("image", forKey: .type)
      try container.encode(url, forKey: .url)
    case .thumbnail(let url):
      try container.encode("thumbnail", forKey: .type)
      try container.encode(url, forKey: .url)
    case .video(let url):
      try container.encode("video", forKey: .type)
      try container.encode(url, forKey: .url)
    case .quote(let author, let postID, let children):
      try encodeChildren("quote", children, into: &container)
      try container.encodeIfPresent(author, forKey: .author)
      try container.encodeIfPresent(postID, forKey: .postID)
    case .code(let text):
      try container.encode("code", forKey: .type)
      try container.encode(text, forKey: .text)
    case .smilie(let code, let url):
      try container.encode("smilie", forKey: .type)
      try container.encode(code, forKey: .code)
      try container.encodeIfPresent(url, forKey: .url)
    case .list(let items):
      try container.encode("list", forKey: .type)
      try container.encode(items.map(Self.tree), forKey: .items)
    case .attachment(let id, let url):
      try container.encode("attachment", forKey: .type)
      try container.encode(id, forKey: .id)
      try container.encode(url, forKey: .url)
    }
  }

  private func encodeChildren(
    _ type: String, _ children: [RichText], into container: inout KeyedEncodingContainer<Key>
  ) throws {
    try container.encode(type, forKey: .type)
    try container.encode(Self.tree(children), forKey: .children)
  }
}
