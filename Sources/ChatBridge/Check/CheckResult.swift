/// One line of `awfulbot check`: what was checked, whether it worked, and what to do when it did not.
package struct CheckResult: Sendable, Hashable {
  package enum Outcome: Sendable, Hashable {
    case pass
    case fail
    /// Worth a look, but not a failure (a literal secret in a world-readable file).
    case warn
    /// Not checked (nothing to check against, or an earlier failure makes it pointless).
    case skip
  }

  package var outcome: Outcome
  package var name: String
  package var detail: String
  /// What to do about a failure or warning.
  package var fix: String?

  package init(_ outcome: Outcome, _ name: String, detail: String = "", fix: String? = nil) {
    self.outcome = outcome
    self.name = name
    self.detail = detail
    self.fix = fix
  }

  package var symbol: String {
    switch outcome {
    case .pass: "✓"
    case .fail: "✗"
    case .warn: "!"
    case .skip: "-"
    }
  }

  /// `✓ forum login: logged in as Bot` / `✗ database: cannot open … — fix: …`
  package var line: String {
    var text = "\(symbol) \(name)"
    if !detail.isEmpty { text += ": \(detail)" }
    if let fix, outcome == .fail || outcome == .warn { text += "\n    fix: \(fix)" }
    return text
  }
}
