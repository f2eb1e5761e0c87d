extension CommandInput {
  /// The one argument of a switch command (`unfurl on`, `reactions off`): on/yes/true or off/no/false, any case.
  func switchValue() throws -> Bool {
    guard values.count == 1 else { throw CommandError.usage(nil) }
    switch values[0].lowercased() {
    case "on", "yes", "true": return true
    case "off", "no", "false": return false
    default: throw CommandError.usage(nil)
    }
  }
}
