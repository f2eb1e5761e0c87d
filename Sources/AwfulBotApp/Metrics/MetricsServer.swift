import ChatBridge
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The HTTP listener for operators: `/metrics` (Prometheus text), `/healthz` (the process answers) and `/readyz`
/// (logged in to the forum and every transport connected). A service of the bot's group; binds 127.0.0.1:9464 by
/// default.
package final class MetricsServer: Service, Sendable {
  package let address: HostPort
  private let readiness: @Sendable () async -> Readiness
  /// Called before each scrape to refresh gauges that mirror the database (outbox depth, dead letters).
  private let refresh: @Sendable () async -> Void
  private let logger: Logger
  private let bound = Mutex<BoundState>(BoundState())

  private struct BoundState {
    var port: Int?
    var waiters: [CheckedContinuation<Int, any Error>] = []
  }

  package init(
    address: HostPort, logger: Logger = Logger(label: "awfulbot.metrics"),
    readiness: @escaping @Sendable () async -> Readiness, refresh: @escaping @Sendable () async -> Void = {}
  ) {
    self.address = address
    self.readiness = readiness
    self.refresh = refresh
    self.logger = logger
    AppMetrics.bootstrap()
  }

  package func run() async throws {
    let router = Router()
    let refresh = self.refresh
    let readiness = self.readiness
    router.get("metrics") { _, _ -> Response in
      await refresh()
      return Self.text(AppMetrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
    router.get("healthz") { _, _ -> Response in Self.text("ok\n") }
    router.get("readyz") { _, _ -> Response in
      let state = await readiness()
      if state.isReady { return Self.text("ready\n") }
      return Self.text(
        "not ready\n" + state.problems.map { "- \($0)\n" }.joined(), status: .serviceUnavailable)
    }
    var serverLogger = logger
    // Hummingbird logs every keep-alive channel it closes at shutdown, and at error level when the group is torn
    // down by another service's failure ("Server shutdown error: Already closed"), which buries the real message.
    // A listener that cannot start throws from `run()` and is logged below, so its own logs add nothing.
    serverLogger.logLevel = .critical
    let application = Application(
      router: router,
      configuration: ApplicationConfiguration(
        address: .hostname(address.host, port: address.port), serverName: nil),
      onServerRunning: { [weak self] channel in
        let port = channel.localAddress?.port ?? 0
        self?.didBind(port: port)
      },
      logger: serverLogger)
    logger.info("metrics listener starting", metadata: ["address": "\(address)"])
    do {
      try await application.run()
    } catch {
      failWaiters(error)
      logger.error("metrics listener failed", metadata: ["address": "\(address)", "error": "\(error)"])
      throw error
    }
    failWaiters(CancellationError())
  }

  /// The port the listener bound (the real one when `address.port` is 0), once it listens.
  package func boundPort() async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      let port: Int? = bound.withLock { state in
        if let port = state.port { return port }
        state.waiters.append(continuation)
        return nil
      }
      if let port { continuation.resume(returning: port) }
    }
  }

  private func didBind(port: Int) {
    let waiters = bound.withLock { state in
      state.port = port
      defer { state.waiters = [] }
      return state.waiters
    }
    logger.info("metrics listener running", metadata: ["host": "\(address.host)", "port": "\(port)"])
    for waiter in waiters { waiter.resume(returning: port) }
  }

  private func failWaiters(_ error: any Error) {
    let waiters = bound.withLock { state in
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(throwing: error) }
  }

  private static func text(
    _ body: String, contentType: String = "text/plain; charset=utf-8", status: HTTPResponse.Status = .ok
  )
    -> Response
  {
    Response(
      status: status, headers: [.contentType: contentType],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }
}
