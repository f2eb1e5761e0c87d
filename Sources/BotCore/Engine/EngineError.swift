/// Errors of the engine API, with messages fit to show in chat.
package enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  case unknownTransport(String)
  case invalidArgument(String)
  case notSubscribed(String)
  /// The forum connection in use offers no private messages.
  case privateMessagesUnavailable

  package var description: String {
    switch self {
    case .unknownTransport(let name): "No transport named \(name) is configured."
    case .invalidArgument(let message): message
    case .notSubscribed(let what): "This room is not subscribed to \(what)."
    case .privateMessagesUnavailable: "This forum connection offers no private messages."
    }
  }
}
