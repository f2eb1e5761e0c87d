import ChatBridge
import Foundation

/// A handler's way to say the command cannot be done, in a sentence fit for chat.
package enum CommandError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The arguments do not fit: the router answers with the command's usage line (and the detail when given).
  case usage(String?)
  /// Anything else, said as is.
  case failed(String)

  package var description: String {
    switch self {
    case .usage(let detail): detail ?? "Wrong arguments."
    case .failed(let message): message
    }
  }
}
