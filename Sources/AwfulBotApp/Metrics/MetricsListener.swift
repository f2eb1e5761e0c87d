import ChatBridge
import Logging
import ServiceLifecycle
import Synchronization

/// Keeps the metrics listener (`MetricsServer`) running at the address the config names, and follows a reloaded
/// config: turned off, on, or moved to another address (`apply`), only the listener restarts. A listener that cannot
/// start when the bot starts ends the bot, as a mistyped address should; one that cannot start after a reload is
/// logged and the bot goes on without it.
package final class MetricsListener: Service, Sendable {
  private let makeServer: @Sendable (HostPort) -> MetricsServer
  private let logger: Logger
  private let initial: HostPort?
  private let server: Mutex<MetricsServer?>
  private let changes: AsyncStream<HostPort?>
  private let changesContinuation: AsyncStream<HostPort?>.Continuation

  package init(
    address: HostPort?, logger: Logger = Logger(label: "awfulbot.metrics"),
    makeServer: @escaping @Sendable (HostPort) -> MetricsServer
  ) {
    self.initial = address
    self.logger = logger
    self.makeServer = makeServer
    self.server = Mutex(nil)
    (changes, changesContinuation) = AsyncStream.makeStream(of: HostPort?.self, bufferingPolicy: .bufferingNewest(1))
    if let address { server.withLock { $0 = makeServer(address) } }
  }

  /// The listener running now (or starting); nil while metrics are off.
  package var current: MetricsServer? { server.withLock { $0 } }

  /// Moves the listener to `address`, or stops it (nil); nothing happens when it is already there.
  package func apply(_ address: HostPort?) {
    changesContinuation.yield(address)
  }

  package func run() async throws {
    var address = initial
    var running = current.map { Self.start($0) }
    if let first = current {
      do {
        _ = try await first.boundPort()
      } catch  where !(error is CancellationError) {
        // The first listener's failure is the start's failure (a port in use, a mistyped host); later ones are
        // only logged by the server.
        running?.cancel()
        throw error
      }
    }
    await withGracefulShutdownHandler {
      for await next in changes where next != address {
        running?.cancel()
        _ = await running?.value
        address = next
        let replacement = next.map(makeServer)
        server.withLock { $0 = replacement }
        running = replacement.map { Self.start($0) }
        logger.info("metrics listener changed", metadata: ["address": "\(next.map { "\($0)" } ?? "off")"])
      }
    } onGracefulShutdown: {
      self.changesContinuation.finish()
    }
    running?.cancel()
    _ = await running?.value
  }

  private static func start(_ server: MetricsServer) -> Task<Void, Never> {
    Task { try? await server.run() }
  }
}
