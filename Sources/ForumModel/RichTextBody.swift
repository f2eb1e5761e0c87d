import Foundation

/// The rich-text body of a post, announcement or private message. It is coded as the `[RichText]` array itself, the
/// form outbox payloads already hold (a stored post decodes as before). An encoder that sets `formKey` gets another
/// form: `awfulbot scrape` prints bodies as plain text or as a tagged tree, which a person can read, while the models
/// still encode themselves.
@propertyWrapper
package struct RichTextBody: Sendable, Hashable, Codable {
  /// The `userInfo` key of a `RichTextBodyForm`; absent means `.array`.
  package static let formKey = CodingUserInfoKey(rawValue: "ForumModel.RichTextBody.form")!

  package var wrappedValue: [RichText]

  package init(wrappedValue: [RichText]) {
    self.wrappedValue = wrappedValue
  }

  package init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode([RichText].self)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch encoder.userInfo[Self.formKey] as? RichTextBodyForm ?? .array {
    case .array: try container.encode(wrappedValue)
    case .plainText: try container.encode(plainText(wrappedValue))
    case .taggedTree: try container.encode(TaggedRichText.tree(wrappedValue))
    }
  }
}
