import ChatBridge
import IRCTransport
import MatrixTransport

/// A running transport that takes its kind's live keys (`TransportKind.liveOptions`) from a reloaded configuration
/// without reconnecting. The reload asks for this protocol, never for a concrete transport; a transport that does
/// not conform needs a restart for every change.
package protocol ReconfigurableTransport: ChatTransport {
  /// Applies `next` (`previous`: the settings in force until now); one sentence per change. Throws when the new
  /// settings cannot be applied.
  func reconfigure(from previous: TransportSettings, to next: TransportSettings, context: TransportBuildContext)
    async throws -> [String]
}

extension IRCTransport: ReconfigurableTransport {
  package func reconfigure(
    from previous: TransportSettings, to next: TransportSettings, context: TransportBuildContext
  ) async throws -> [String] {
    try await reconfigure(to: TransportKind.configuration(next, context: context))
  }
}

extension MatrixTransport: ReconfigurableTransport {
  package func reconfigure(
    from previous: TransportSettings, to next: TransportSettings, context: TransportBuildContext
  ) async throws -> [String] {
    let decode = { (settings: TransportSettings) in
      try settings.decodeOptions(MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
    }
    return await reconfigure(from: try decode(previous), to: try decode(next))
  }
}
