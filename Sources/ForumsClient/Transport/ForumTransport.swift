import AsyncHTTPClient
import ForumModel
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// HTTP to the forum: cookies, one exchange at a time with spacing, redirects followed by hand (to keep cookies and
/// `perpage=40`), whole-exchange timeouts, body-size cap, and retries of transient failures.
package actor ForumTransport {
  package nonisolated let configuration: ForumsClientConfiguration
  private let httpClient: HTTPClient
  private let ownsHTTPClient: Bool
  private let cookieStore: any CookieStore
  private let gate: RequestGate
  private let logger: Logger
  private var jar = CookieJar()
  private var jarIsLoaded = false
  /// The wall in front of the forum while its answers are walls (`ForumWall`); nil once the forum answers again on
  /// every path the wall stood in front of lately (`ForumsClientConfiguration.wallSightingLifetime`).
  package private(set) var wall: ForumWallSighting?
  /// The paths (`/showthread.php`) the wall answered, with when it last did, each until the forum answers there
  /// itself: a wall may stand in front of some pages only, and another page answering does not mean it lifted.
  private var walledPaths: [String: ContinuousClock.Instant] = [:]

  /// Uses `httpClient` when given (the caller shuts it down), else creates one that `shutdown()` closes.
  package init(
    configuration: ForumsClientConfiguration, cookieStore: any CookieStore, httpClient: HTTPClient? = nil,
    logger: Logger
  ) {
    self.configuration = configuration
    self.cookieStore = cookieStore
    self.logger = logger
    self.gate = RequestGate(spacing: configuration.minimumRequestSpacing)
    if let httpClient {
      self.httpClient = httpClient
      self.ownsHTTPClient = false
    } else {
      var httpConfiguration = HTTPClient.Configuration(
        redirectConfiguration: .disallow,
        timeout: .init(
          connect: .init(configuration.connectTimeout), read: .init(configuration.requestTimeout)))
      httpConfiguration.decompression = .enabled(limit: .size(configuration.maximumBodySize))
      self.httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
      self.ownsHTTPClient = true
    }
  }

  package func shutdown() async throws {
    if ownsHTTPClient {
      try await httpClient.shutdown()
    }
  }

  // MARK: Cookies

  package func hasCookie(named name: String) async -> Bool {
    await loadCookiesIfNeeded()
    return jar.contains(named: name)
  }

  /// Forgets the session (after a failed login, like the forum's own client, so a half-valid session is not kept).
  package func clearCookies() async {
    jar.removeAll()
    jarIsLoaded = true
    await persistCookies()
  }

  private func loadCookiesIfNeeded() async {
    guard !jarIsLoaded else { return }
    jarIsLoaded = true
    do {
      jar = CookieJar(try await cookieStore.load())
    } catch {
      logger.warning("could not load forum cookies; starting a new session", metadata: ["error": "\(error)"])
    }
  }

  private func persistCookies() async {
    do {
      try await cookieStore.save(jar.cookies)
    } catch {
      logger.warning("could not save forum cookies", metadata: ["error": "\(error)"])
    }
  }

  // MARK: Requests

  /// Sends `request`, following redirects unless it says not to, and retrying transient failures. A final 5xx is
  /// returned rather than thrown, so the caller can read the forum's error page from it.
  package func send(_ request: ForumRequest) async throws(ForumsClientError) -> ForumResponse {
    await loadCookiesIfNeeded()
    guard let url = request.url(relativeTo: configuration.baseURL) else {
      throw .transport("cannot build a URL for \(request.path)")
    }
    let policy = configuration.retry
    var attempt = 1
    while true {
      do {
        let response = try await Self.$bodyCap.withValue(request.maximumBodySize) {
          try await sendFollowingRedirects(request, to: url)
        }
        // A wall is not retried at once: asking again in half a second is what it objects to.
        if let wall = WallDetector.wall(in: response) {
          noteWall(wall, path: request.path)
          throw ForumsClientError.walled(wall)
        }
        noteForumAnswered(path: request.path)
        let canRetry = request.isIdempotent && attempt < policy.maxAttempts
        guard canRetry, RetryPolicy.isRetryable(status: response.status) else { return response }
        logger.notice(
          "forum server error; retrying",
          metadata: ["path": "\(request.path)", "status": "\(response.status)", "attempt": "\(attempt)"])
      } catch let error as ForumsClientError where error.wall != nil {
        throw error
      } catch {
        guard attempt < policy.maxAttempts, TransportFailure.isRetryable(error, isIdempotent: request.isIdempotent)
        else {
          throw TransportFailure.clientError(for: error, requestTimeout: configuration.requestTimeout)
        }
        logger.notice(
          "forum unreachable; retrying",
          metadata: ["path": "\(request.path)", "error": "\(error)", "attempt": "\(attempt)"])
      }
      do {
        try await Task.sleep(for: policy.delay(beforeRetry: attempt))
      } catch {
        throw .transport("cancelled")
      }
      attempt += 1
    }
  }

  /// Remembers the wall; says so once when it begins (or turns into another kind), not at every request.
  private func noteWall(_ found: ForumWall, path: String) {
    let now = Date()
    walledPaths[path] = .now
    if let current = wall, current.wall.kind == found.kind {
      wall = ForumWallSighting(wall: found, since: current.since, lastSeen: now)
      return
    }
    wall = ForumWallSighting(wall: found, since: now, lastSeen: now)
    ForumRequestMetrics.wall(found.kind)
    logger.warning(
      "the forum is behind a wall",
      metadata: [
        "wall": "\(found.kind.rawValue)", "status": "\(found.status)", "path": "\(path)",
        "retryAfterSeconds": "\(found.retryAfterSeconds.map(String.init) ?? "-")",
      ])
  }

  /// The forum answered itself on `path`: the wall in force has lifted once no path it answered lately is left.
  private func noteForumAnswered(path: String) {
    guard let lifted = wall else { return }
    let now = ContinuousClock.now
    walledPaths[path] = nil
    walledPaths = walledPaths.filter { now - $0.value <= configuration.wallSightingLifetime }
    guard walledPaths.isEmpty else { return }
    wall = nil
    ForumRequestMetrics.wall(nil)
    logger.notice(
      "the wall in front of the forum lifted",
      metadata: [
        "wall": "\(lifted.wall.kind.rawValue)", "lastedSeconds": "\(Int(Date().timeIntervalSince(lifted.since)))",
      ])
  }

  private func sendFollowingRedirects(_ request: ForumRequest, to initialURL: URL) async throws -> ForumResponse {
    var method = request.method
    var form = request.form
    var url = initialURL
    for _ in 0...configuration.maximumRedirects {
      let response = try await exchange(method: method, url: url, form: form, encoding: request.bodyEncoding)
      guard request.followsRedirects, response.isRedirect, let target = response.location else {
        return response
      }
      if !RedirectRules.keepsMethodAndBody(status: response.status) {
        method = .get
        form = []
      }
      url = RedirectRules.adjusted(target, from: url)
    }
    throw ForumsClientError.tooManyRedirects
  }

  /// One HTTP exchange under the gate: at most one in flight, starts spaced. The `Cookie` header is built and the
  /// `Set-Cookie` headers applied while holding the gate, so each exchange sees the cookies of the one before it.
  private func exchange(
    method: ForumRequest.Method, url: URL, form: [FormField], encoding: ForumRequest.BodyEncoding = .multipart
  ) async throws -> ForumResponse {
    var httpRequest = HTTPClientRequest(url: Self.withoutFragment(url).absoluteString)
    httpRequest.method = method == .get ? .GET : .POST
    httpRequest.headers.add(name: "User-Agent", value: configuration.userAgent)
    if method == .post, encoding == .urlEncoded {
      httpRequest.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
      let body = form.map { QueryEncoding.encode($0.name) + "=" + QueryEncoding.encode($0.submittedValue) }
      httpRequest.body = .bytes(ByteBuffer(bytes: Array(body.joined(separator: "&").utf8)))
    } else if method == .post {
      let encoder = MultipartFormEncoder(boundary: MultipartFormEncoder.randomBoundary())
      httpRequest.headers.add(name: "Content-Type", value: encoder.contentType)
      httpRequest.body = .bytes(ByteBuffer(bytes: encoder.encode(form)))
    }

    try await gate.acquire()
    let raw: RawResponse
    do {
      if let cookie = cookieHeader(for: url) {
        httpRequest.headers.replaceOrAdd(name: "Cookie", value: cookie)
      }
      raw = try await perform(httpRequest)
    } catch {
      await gate.release()
      ForumRequestMetrics.recordFailure()
      logger.info(
        "forum request failed", metadata: ["method": "\(method.rawValue)", "path": "\(url.path)", "error": "\(error)"])
      throw error
    }
    if jar.receive(setCookieHeaders: raw.headers["set-cookie"], from: url) {
      await persistCookies()
    }
    await gate.release()
    ForumRequestMetrics.record(status: raw.status)
    logger.debug(
      "forum request", metadata: ["method": "\(method.rawValue)", "path": "\(url.path)", "status": "\(raw.status)"])
    return ForumResponse(status: raw.status, headers: raw.headers, body: raw.body, url: url)
  }

  /// The session's cookies, then those the config gives (a browser's `cf_clearance`) under names the forum did not
  /// set itself.
  private func cookieHeader(for url: URL) -> String? {
    let session = jar.cookieHeader(for: url)
    let given = configuration.extraCookies.sorted { $0.key < $1.key }.filter { !jar.contains(named: $0.key) }
      .map { "\($0.key)=\($0.value)" }
    let parts = (session.map { [$0] } ?? []) + given
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  private struct RawResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
  }

  /// The request's own cap on its answer's bytes (`ForumRequest.maximumBodySize`) while it is being sent: set by
  /// `send` around its exchanges, so each redirect and retry reads under it.
  @TaskLocal private static var bodyCap: Int?

  private func perform(_ request: HTTPClientRequest) async throws -> RawResponse {
    let client = httpClient
    let timeout = configuration.requestTimeout
    let cap = min(Self.bodyCap ?? .max, configuration.maximumBodySize)
    return try await withDeadline(timeout) {
      let response = try await client.execute(request, timeout: .init(timeout))
      let body = try await response.body.collect(upTo: cap)
      return RawResponse(
        status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }
  }

  private static func withoutFragment(_ url: URL) -> URL {
    guard url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return url
    }
    components.fragment = nil
    return components.url ?? url
  }
}
