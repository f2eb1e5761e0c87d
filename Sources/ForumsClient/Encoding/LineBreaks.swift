/// Line-break normalisation for textarea values.
package enum LineBreaks {
  /// Every lone CR, lone LF and CRLF becomes CRLF (what a browser submits for a textarea).
  package static func crlf(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\r":
        if previousWasCR { result.append("\n") }
        result.append("\r")
        previousWasCR = true
      case "\n":
        if !previousWasCR { result.append("\r") }
        result.append("\n")
        previousWasCR = false
      default:
        if previousWasCR { result.append("\n") }
        result.append(scalar)
        previousWasCR = false
      }
    }
    if previousWasCR { result.append("\n") }
    return String(result)
  }
}
