/// The unique markers the soak puts in every forum event (`soak-17`), and how a delivered message is read back
/// for them: each service counts a marker once per message, so one found twice means a message was sent twice.
enum SoakMarkers {
  static let prefix = "soak-"

  static func marker(_ number: Int) -> String { "\(prefix)\(number)" }

  /// The marker numbers in `text`, each once (a message may name its marker in its title and its body).
  static func numbers(in text: String) -> Set<Int> {
    var found = Set<Int>()
    var rest = Substring(text)
    while let range = rest.range(of: prefix) {
      let digits = rest[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
      if let number = Int(digits) { found.insert(number) }
      rest = rest[range.upperBound...]
    }
    return found
  }
}
