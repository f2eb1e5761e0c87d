import AwfulBotTestKit
import IRCTransport
import Logging
import ServiceLifecycle

/// The IRC transport running in a service group (with whatever other services a test adds), stopped gracefully.
package final class RunningIRCTransport: Sendable {
  package let transport: IRCTransport
  private let services: RunningServices

  package init(_ transport: IRCTransport, with services: [any Service] = []) {
    self.transport = transport
    self.services = RunningServices([transport] + services)
  }

  package convenience init(_ configuration: IRCTransportConfiguration, with services: [any Service] = []) throws {
    self.init(try IRCTransport(configuration: configuration, logger: .quiet()), with: services)
  }

  /// How the group ended (the transport's `run` error, when it stopped on its own).
  package var result: Result<Void, any Error> {
    get async { await services.result }
  }

  /// Graceful shutdown (QUIT), bounded: a service that does not stop within 10 s is cancelled.
  package func stop() async { await services.stop(within: .seconds(10)) }
}
