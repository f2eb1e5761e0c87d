import ChatBridge
import Foundation

/// Reads `--flag` and `--option value` arguments out of a command's arguments, leaving the positional ones.
package struct ArgumentScanner: Sendable {
  package private(set) var positional: [String] = []
  package private(set) var flags: Set<String> = []
  package private(set) var options: [String: [String]] = [:]

  /// `valueOptions` take the next argument as their value (`--author X`); other `--names` are flags.
  /// Throws a usage error for an unknown option or a missing value.
  package init(_ arguments: [String], flags knownFlags: Set<String>, valueOptions: Set<String>) throws {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--"), argument.count > 2 else {
        positional.append(argument)
        continue
      }
      let option = argument.dropFirst(2)
      var name = option.lowercased()
      var inlineValue: String?
      if let equals = option.firstIndex(of: "=") {
        inlineValue = String(option[option.index(after: equals)...])
        name = option[..<equals].lowercased()
      }
      if knownFlags.contains(name) {
        flags.insert(name)
      } else if valueOptions.contains(name) {
        guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil), !value.isEmpty else {
          throw CommandError.usage("--\(name) needs a value.")
        }
        if inlineValue == nil { index += 1 }
        options[name, default: []].append(value)
      } else {
        throw CommandError.usage("Unknown option --\(name).")
      }
    }
  }
}
