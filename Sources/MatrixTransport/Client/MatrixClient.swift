import AsyncHTTPClient
import ChatBridge
import ForumModel
import Foundation
import Logging
import MatrixModel

/// A small client for the Matrix client-server API: one request primitive (`call`) and, in extensions, one method per
/// endpoint the bot uses. It knows nothing about the bot; retries and re-login live in the transport.
package struct MatrixClient: Sendable {
  package let homeserver: URL
  private let httpClient: HTTPClient
  private let logger: Logger
  /// Responses larger than this are refused (a sync of a huge room is well below it).
  package static let maximumResponseBytes = 64 * 1024 * 1024

  package init(homeserver: URL, httpClient: HTTPClient = .shared, logger: Logger = Logger(label: "awfulbot.matrix")) {
    self.homeserver = homeserver
    self.httpClient = httpClient
    self.logger = logger
  }

  /// The raw exchange: status, `Retry-After`, body. Throws only `MatrixClientError.network` (no answer).
  package func perform(_ request: MatrixRequest) async throws -> (status: Int, retryAfter: String?, body: [UInt8]) {
    var http = HTTPClientRequest(url: request.url(homeserver: homeserver))
    switch request.method {
    case .get: http.method = .GET
    case .post: http.method = .POST
    case .put: http.method = .PUT
    }
    http.headers.add(name: "Accept", value: "application/json")
    http.headers.add(name: "User-Agent", value: "awfulbot")
    if let token = request.accessToken {
      http.headers.add(name: "Authorization", value: "Bearer \(token)")
    }
    if let bytes = try request.encodedBody ?? request.body.map(Self.encode) {
      http.headers.add(name: "Content-Type", value: request.contentType ?? "application/json")
      http.body = .bytes(bytes)
    }
    let client = httpClient
    let prepared = http
    let timeout = request.timeout
    let started = ContinuousClock.now
    do {
      let exchange: @Sendable () async throws -> (Int, String?, [UInt8]) = {
        let response = try await client.execute(prepared, timeout: .milliseconds(timeout.wholeMilliseconds))
        let collected = try await response.body.collect(upTo: Self.maximumResponseBytes)
        return (
          Int(response.status.code), response.headers.first(name: "Retry-After"), Array(collected.readableBytesView)
        )
      }
      // AsyncHTTPClient's timeout covers the response head; the deadline bounds the body too.
      let result = request.timeoutCoversBody ? try await withDeadline(timeout, exchange) : try await exchange()
      logger.trace(
        "matrix request",
        metadata: [
          "method": "\(request.method.rawValue)", "path": "\(request.logPath)", "status": "\(result.0)",
          "ms": "\((ContinuousClock.now - started).wholeMilliseconds)",
        ])
      return (status: result.0, retryAfter: result.1, body: result.2)
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as MatrixClientError {
      throw error
    } catch let error as HTTPClientError where error == .deadlineExceeded {
      // AsyncHTTPClient's bound on the head ran out (the same sentence as when ours on the whole exchange does).
      throw MatrixClientError.network("no answer within \(timeout)")
    } catch is DeadlineExceeded {
      throw MatrixClientError.network("no answer within \(timeout)")
    } catch let error as HTTPClientError where error == .readTimeout {
      throw MatrixClientError.network("its answer stopped halfway")
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw MatrixClientError.network(String(describing: error))
    }
  }

  /// A request body as JSON (also how the transport encodes a send's body ahead of time, see `MatrixTransport.prepare`).
  static func encode(_ body: JSONValue) throws -> [UInt8] {
    do {
      return Array(try JSONEncoder().encode(body))
    } catch {
      throw MatrixClientError.invalidResponse("could not encode the request body: \(error)")
    }
  }

  /// Sends the request and decodes a 2xx body as `Response`; any other status becomes `MatrixClientError.api`.
  package func call<Response: Decodable>(_ request: MatrixRequest, as type: Response.Type = Response.self)
    async throws -> Response
  {
    let (status, retryAfter, body) = try await perform(request)
    guard (200..<300).contains(status) else {
      throw MatrixClientError.api(MatrixAPIError.parse(status: status, body: body, retryAfterHeader: retryAfter))
    }
    do {
      return try JSONNesting.decode(Response.self, from: Data(body))
    } catch {
      throw MatrixClientError.invalidResponse("\(request.logPath): \(error)")
    }
  }
}
