/// Errors of the engine API, with messages fit to show in chat.
package enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  case unknownTransport(String)
  case invalidArgument(String)
  case notSubscribed(String)

  package var description: String {
    switch self {
    case .unknownTransport(let name): "No transport named \(name) is configured."
    case .invalidArgument(let message): message
    case .notSubscribed(let what): "This room is not subscribed to \(what)."
    }
  }
}
