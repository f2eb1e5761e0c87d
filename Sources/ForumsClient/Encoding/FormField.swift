/// One field of a form the client submits. Order matters: PHP keeps the last value of a repeated name.
package struct FormField: Sendable, Hashable {
  package enum Kind: Sendable, Hashable {
    /// Inputs, selects, buttons: sent as they are.
    case text
    /// A textarea: line breaks are normalised to CRLF, as browsers do.
    case textarea
  }

  package var name: String
  package var value: String
  package var kind: Kind

  package init(_ name: String, _ value: String, kind: Kind = .text) {
    self.name = name
    self.value = value
    self.kind = kind
  }

  /// The value as submitted: textareas get CRLF line breaks.
  package var submittedValue: String {
    switch kind {
    case .text: value
    case .textarea: LineBreaks.crlf(value)
    }
  }
}

extension FormField: CustomStringConvertible {
  /// Never shows the value: fields carry passwords and form keys.
  package var description: String { "FormField(\(name))" }
}
