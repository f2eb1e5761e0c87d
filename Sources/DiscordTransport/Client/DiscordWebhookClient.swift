import AsyncHTTPClient
import ForumModel
import Foundation
import Logging
import NIOCore

/// The HTTP exchange with a webhook: one request, its answer. No retries and no rate limiting here (the transport's
/// send loop does both); nothing it logs or throws contains the webhook's token.
struct DiscordWebhookClient: Sendable {
  enum Method: String, Sendable {
    case get = "GET"
    case post = "POST"
    case patch = "PATCH"
    case delete = "DELETE"
  }

  /// A request that got no answer (refused, reset, timed out): worth trying again. The reason has no token in it.
  struct NetworkFailure: Error, Sendable, Hashable {
    var reason: String
  }

  /// An answer is a message object or an error: far below this. More is refused as a network failure.
  static let maximumAnswerBytes = 256 * 1024

  let httpClient: HTTPClient
  let timeout: Duration
  let logger: Logger

  /// Sends `body` (JSON) to `url` and returns the answer. Throws `NetworkFailure` when there is none, or
  /// `CancellationError`.
  func perform(_ method: Method, _ url: String, webhook: DiscordWebhook, logPath: String, body: [UInt8]? = nil)
    async throws -> DiscordAnswer
  {
    var request = HTTPClientRequest(url: url)
    request.method = .RAW(value: method.rawValue)
    request.headers.add(name: "User-Agent", value: "awfulbot")
    request.headers.add(name: "Accept", value: "application/json")
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: body))
    }
    let client = httpClient
    let prepared = request
    let timeout = self.timeout
    let started = ContinuousClock.now
    do {
      // AsyncHTTPClient's timeout covers the answer's head; the deadline bounds its body too.
      let answer = try await withDeadline(timeout) {
        let response = try await client.execute(prepared, timeout: .milliseconds(timeout.wholeMilliseconds))
        let collected = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        let headers = DiscordRateLimitHeaders { response.headers.first(name: $0) }
        return DiscordAnswer(
          status: Int(response.status.code), rateLimit: headers, body: Array(collected.readableBytesView))
      }
      logger.trace(
        "discord request",
        metadata: [
          "method": "\(method.rawValue)", "path": "\(logPath)", "status": "\(answer.status)",
          "ms": "\((ContinuousClock.now - started).wholeMilliseconds)",
        ])
      return answer
    } catch is CancellationError {
      throw CancellationError()
    } catch let failure as NetworkFailure {
      throw failure
    } catch let error as HTTPClientError where error == .deadlineExceeded {
      throw NetworkFailure(reason: "no answer within \(timeout)")
    } catch is DeadlineExceeded {
      throw NetworkFailure(reason: "no answer within \(timeout)")
    } catch let error as HTTPClientError where error == .readTimeout {
      throw NetworkFailure(reason: "its answer stopped halfway")
    } catch {
      if Task.isCancelled { throw CancellationError() }
      // An error's text may name the request; the token is blanked out of it all the same.
      throw NetworkFailure(reason: webhook.scrubbed(String(describing: error)))
    }
  }
}
