import Foundation

/// `form[name=vbform]` of `newreply.php`, every field kept in document order.
package struct ReplyForm: Sendable, Hashable, Codable {
  package struct Field: Sendable, Hashable, Codable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }
  package var action: String
  /// Hidden inputs, checked checkboxes/radios, selected options, text values, in order; submits excluded.
  package var fields: [Field]
  /// The initial value of the `message` textarea (a quote when replying with one).
  package var message: String
  /// Submit buttons by name (`submit` → "Submit Reply", `preview` → "Preview Reply").
  package var submitButtons: [Field]

  package init(action: String, fields: [Field], message: String, submitButtons: [Field]) {
    self.action = action
    self.fields = fields
    self.message = message
    self.submitButtons = submitButtons
  }
}
