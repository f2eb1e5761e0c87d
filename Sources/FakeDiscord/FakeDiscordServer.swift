import Foundation
import Hummingbird
import Logging

/// A Discord webhook receiver on loopback, for tests and the crash proof: it answers as Discord's documentation
/// says (`FakeDiscordState.handle`), records what it took, and has switches for faults (`FakeDiscordFault`) and for
/// being down (`goDown`, then `start` again on the same port).
///
/// ```swift
/// let discord = FakeDiscordServer()
/// let base = try await discord.start()                       // http://127.0.0.1:<port>
/// let webhook = base + (await discord.state.addWebhook())     // …/api/webhooks/<id>/<token>
/// ```
/// Admin API (for a receiver run as a process): `POST /_fake/webhooks` makes a webhook and answers `{"url": …}`,
/// `GET /_fake/messages` lists every message taken, `POST /_fake/fault` sets a `FakeDiscordFault` (JSON), `DELETE
/// /_fake/fault` clears it.
package actor FakeDiscordServer {
  package nonisolated let state: FakeDiscordState
  private let host: String
  private var port: Int
  private var runTask: Task<Void, any Error>?
  private var boundURL: String?
  private var urlWaiters: [CheckedContinuation<String, any Error>] = []

  package init(state: FakeDiscordState = FakeDiscordState(), host: String = "127.0.0.1", port: Int = 0) {
    self.state = state
    self.host = host
    self.port = port
  }

  /// Starts listening and returns the base URL (`http://127.0.0.1:<port>`); after a `stop`, on the same port.
  @discardableResult
  package func start() async throws -> String {
    await state.setDown(false)
    if let boundURL { return boundURL }
    if runTask == nil { runTask = Task { try await self.run() } }
    return try await waitForBaseURL()
  }

  /// Stops listening (requests are then refused) until `start`.
  package func stop() async {
    // Requests held by `goDown` are let go first: a graceful shutdown waits for them.
    await state.setDown(false)
    guard let task = runTask else { return }
    task.cancel()
    _ = await task.result
    runTask = nil
  }

  /// Goes down as far as a client can tell, without giving the port up: requests get no answer (each waits until
  /// `start` or `stop`), so the client's own timeout ends them. A test that wants Discord unreachable uses this
  /// rather than `stop`: in a full test run, a port given back to the kernel was found taken when `start` bound it
  /// again.
  package func goDown() async {
    await state.setDown(true)
  }

  package func waitForBaseURL() async throws -> String {
    if let boundURL { return boundURL }
    return try await withCheckedThrowingContinuation { urlWaiters.append($0) }
  }

  /// Runs until the calling task is cancelled.
  package func run() async throws {
    let state = self.state
    let responder = CallbackResponder<BasicRequestContext> { request, _ in
      while await state.isDown { try await Task.sleep(for: .milliseconds(20)) }
      let body = try await request.body.collect(upTo: 1024 * 1024)
      let bytes = Array(body.readableBytesView)
      let path = request.uri.path
      let base = "http://\(request.head.authority ?? "127.0.0.1")"
      let answer: FakeDiscordResponse
      if path.hasPrefix("/_fake/") {
        answer = await FakeDiscordAdmin.handle(
          method: request.method.rawValue, path: path, body: bytes, baseURL: base, state: state)
      } else {
        answer = await state.handle(method: request.method.rawValue, path: path, query: request.uri.query, body: bytes)
      }
      var headers = HTTPFields()
      // The names are the receiver's own constants (and a scripted answer's, which tests write): all valid tokens.
      for (name, value) in answer.headers { headers[values: .init(name)!] += [value] }
      return Response(
        status: HTTPResponse.Status(code: answer.status), headers: headers,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
    var logger = Logger(label: "FakeDiscord")
    logger.logLevel = .critical
    let host = self.host
    let application = Application(
      responder: responder,
      configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
      onServerRunning: { channel in
        await self.didBind(port: channel.localAddress?.port ?? 0)
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

  private func didBind(port: Int) {
    self.port = port
    let url = "http://\(host):\(port)"
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
