import Foundation
import Hummingbird
import Logging

/// The Something Awful forums, emulated on loopback for tests, the demo and benchmarks.
///
/// ```swift
/// let forum = try await FakeForumServer(configuration: .init(port: 0, seed: .demo, pageNav: .new))
/// let baseURL = try await forum.start()   // http://127.0.0.1:<port>
/// try await forum.state.addPost(thread: 3_600_001, author: 1002, body: "hello")
/// await forum.stop()
/// ```
/// Or run it as a service: `try await forum.run()` until the task is cancelled (`waitForBaseURL()` tells where).
package actor FakeForumServer {
  package nonisolated let configuration: FakeForumConfiguration
  /// The forum's content, faults and request log; change it while the server runs.
  package nonisolated let state: ForumState

  private var runTask: Task<Void, any Error>?
  private var boundURL: URL?
  private var urlWaiters: [CheckedContinuation<URL, any Error>] = []

  package init(configuration: FakeForumConfiguration = FakeForumConfiguration()) async throws {
    self.configuration = configuration
    self.state = try await ForumState(configuration: configuration)
  }

  /// Where the server listens, once it does.
  package var baseURL: URL? { boundURL }

  /// Starts listening in a task of its own and returns the base URL (`http://127.0.0.1:<port>`).
  @discardableResult
  package func start() async throws -> URL {
    if let boundURL { return boundURL }
    if runTask == nil {
      runTask = Task { try await self.run() }
    }
    return try await waitForBaseURL()
  }

  /// Stops the server started by `start()` and waits until it no longer listens.
  package func stop() async {
    guard let task = runTask else { return }
    task.cancel()
    _ = await task.result
    runTask = nil
  }

  /// Suspends until the server listens and returns its base URL (for callers that use `run()`).
  package func waitForBaseURL() async throws -> URL {
    if let boundURL { return boundURL }
    return try await withCheckedThrowingContinuation { urlWaiters.append($0) }
  }

  /// Runs the server until the calling task is cancelled (or a surrounding service group shuts down).
  package func run() async throws {
    let state = self.state
    let router = ForumRouter(configuration: configuration)
    let admin = AdminAPI(state: state)
    let responder = CallbackResponder<BasicRequestContext> { request, _ in
      try await ForumHTTPHandler.handle(request, state: state, router: router, admin: admin)
    }
    var logger = Logger(label: "FakeForum")
    // Cancelling the server at shutdown makes Hummingbird log the open keep-alive channels as errors; the emulator
    // is test and demo infrastructure, so only critical problems are worth printing.
    logger.logLevel = .critical
    let host = configuration.host
    let application = Application(
      responder: responder,
      configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? 0
        await self.didBind(URL(string: "http://\(host):\(port)")!)
      },
      logger: logger)
    do {
      try await application.run()
    } catch {
      failWaiters(error)
      boundURL = nil
      throw error
    }
    failWaiters(CancellationError())
    boundURL = nil
  }

  private func didBind(_ url: URL) {
    boundURL = url
    let waiters = urlWaiters
    urlWaiters = []
    for waiter in waiters { waiter.resume(returning: url) }
  }

  private func failWaiters(_ error: any Error) {
    let waiters = urlWaiters
    urlWaiters = []
    for waiter in waiters { waiter.resume(throwing: error) }
  }
}
