/// mIRC formatting codes the bot adds to its own output (titles), never taken from forum text.
package enum IRCMircFormat {
  package static let bold = "\u{02}"
  package static let colour = "\u{03}"
  package static let reset = "\u{0F}"

  /// `text` in bold and, when given, in mIRC colour `colour` (0–15); closed with a reset so nothing leaks.
  package static func title(_ text: String, colour number: Int?) -> String {
    guard !text.isEmpty else { return text }
    var start = bold
    if let number, (0...98).contains(number) {
      // Two digits, so a title starting with a digit is not read as part of the colour number.
      start += colour + (number < 10 ? "0\(number)" : "\(number)")
    }
    return start + text + reset
  }
}
