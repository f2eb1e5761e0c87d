/// How a `RichTextBody` encodes, chosen by the encoder's `userInfo[RichTextBody.formKey]`.
package enum RichTextBodyForm: Sendable, Hashable {
  /// The `[RichText]` array in its own `Codable` form: what stored payloads hold.
  case array
  /// `plainText(_:)`: the same text chat and alerts get.
  case plainText
  /// One `{"type": …}` object per node (`TaggedRichText`), for people and scripts reading the tree.
  case taggedTree
}
