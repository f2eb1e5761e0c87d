import AsyncHTTPClient
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

/// Issue 43: a homeserver's answer is outside input, read off the wire like any other. A 429 whose
/// `retry_after_ms` is 1e20 and whose `Retry-After` is `inf` once trapped in `Int64(…)`; here the bytes go through the
/// real client over loopback and come out as a wait of a day at most, the errcode kept.
@Suite("a hostile homeserver's answers")
struct HostileHomeserverAnswerTests {
  @Test("a 429 with retry_after_ms 1e20 and Retry-After inf: a day's wait, the rate limit still known")
  func absurdRetryAfter() async throws {
    let body = #"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":1e20}"#
    let answer =
      "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: inf\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    let server = try await StallingHTTPServer.start(answering: answer)
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
    let client = MatrixClient(homeserver: URL(string: "http://127.0.0.1:\(server.port)")!, httpClient: http)
    var caught: MatrixClientError?
    do {
      _ = try await client.sendEvent(
        token: "token", roomID: "!r:localhost", type: "m.room.message", transactionID: "t1", content: ["body": "hi"])
    } catch let error as MatrixClientError {
      caught = error
    }
    try await http.shutdown()
    await server.stop()
    let api = try #require(caught?.apiError, "\(String(describing: caught))")
    #expect(api.isRateLimited)
    #expect(api.retryAfter == .seconds(86_400))
  }
}
