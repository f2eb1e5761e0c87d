import AwfulScraping

/// `kind: "reply-form"`: the `vbform` of `newreply.php`.
struct ReplyFormOutput: Encodable, Sendable {
  struct Field: Encodable, Sendable {
    var name: String
    var value: String
  }

  var kind = ScrapeKind.replyForm.rawValue
  var action: String
  /// What a submit sends besides `message` and the button, in document order.
  var fields: [Field]
  /// The textarea's initial text (a quote when replying with one).
  var message: String
  var submitButtons: [Field]

  init(_ form: ReplyForm) {
    action = form.action
    fields = form.fields.map { Field(name: $0.name, value: $0.value) }
    message = form.message
    submitButtons = form.submitButtons.map { Field(name: $0.name, value: $0.value) }
  }
}
