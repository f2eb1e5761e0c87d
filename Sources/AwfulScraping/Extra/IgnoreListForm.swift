import Foundation

/// The ignore-list editor (`member2.php?action=viewlist&userlist=ignore`): a form of hidden fields and one
/// `listbits[]` text box per entry (filled ones first, then a few empty ones). To change the list, set the usernames
/// and post `submission` back to `action` (multipart, windows-1252): the forum replaces the whole list with it.
package struct IgnoreListForm: Sendable, Hashable, Codable {
  package typealias Field = ReplyForm.Field

  /// The text box name the forum uses for each entry.
  package static let entryFieldName = "listbits[]"

  /// The form's `action` attribute (`member2.php`).
  package var action: String
  /// Every field in document order (hidden inputs, text boxes with their values, empty ones too); submits excluded.
  package var fields: [Field]
  /// The submit button (`submit` → "Update list").
  package var submitButton: Field?

  package init(action: String, fields: [Field], submitButton: Field?) {
    self.action = action
    self.fields = fields
    self.submitButton = submitButton
  }

  /// The `listbits[]` text boxes, empty ones included.
  package var textBoxes: [Field] { fields.filter { $0.name == Self.entryFieldName } }

  /// The usernames on the list: the filled text boxes, in order.
  package var usernames: [String] {
    textBoxes.map { $0.value.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// The form with its entries replaced by exactly one `listbits[]` per username (blank names dropped), placed where
  /// the text boxes were. An empty list clears the ignore list.
  package func settingUsernames(_ names: [String]) -> IgnoreListForm {
    let entries = names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      .map { Field(name: Self.entryFieldName, value: $0) }
    let insertAt = fields.firstIndex { $0.name == Self.entryFieldName } ?? fields.endIndex
    var kept = fields
    kept.removeAll { $0.name == Self.entryFieldName }
    let position = fields[..<insertAt].filter { $0.name != Self.entryFieldName }.count
    kept.insert(contentsOf: entries, at: min(position, kept.count))
    var copy = self
    copy.fields = kept
    return copy
  }

  /// What to post: every field, then the submit button.
  package var submission: [Field] { fields + (submitButton.map { [$0] } ?? []) }
}
