import AsyncHTTPClient
import ChatBridge
import Foundation
import MatrixModel
import NIOCore
import Testing

@testable import MatrixTransport

/// A homeserver that hangs gets a clear error within the request's bound, whichever part of the answer it holds
/// back: sends leave the body to the HTTP client's read timeout (see `MatrixRequest.timeoutCoversBody`).
@Suite("Matrix requests against a homeserver that hangs")
struct MatrixClientTimeoutTests {
  static let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"

  @Test("no answer at all: a send fails after its timeout, saying so")
  func sendWithoutAnswer() async throws {
    let error = try await failure(answering: "", timeoutCoversBody: false)
    #expect(error == .network("no answer within 0.3 seconds"))
  }

  @Test("a head and then nothing: a sync-like request's own bound ends it")
  func bodyStallsWithinBound() async throws {
    let error = try await failure(answering: Self.head, timeoutCoversBody: true)
    #expect(error == .network("no answer within 0.3 seconds"))
  }

  @Test("a head and then nothing: a send is ended by the client's read timeout, and says the answer stopped")
  func sendBodyStalls() async throws {
    // The head must arrive within the request's bound even on a loaded machine; the body's stall is the read timeout's.
    let error = try await failure(
      answering: Self.head, timeoutCoversBody: false, readTimeout: .milliseconds(500), requestTimeout: .seconds(5))
    #expect(error == .network("its answer stopped halfway"))
    #expect(error?.description == "homeserver unreachable: its answer stopped halfway")
  }

  private func failure(
    answering answer: String, timeoutCoversBody: Bool, readTimeout: TimeAmount? = nil,
    requestTimeout: Duration = .milliseconds(300)
  ) async throws -> MatrixClientError? {
    let server = try await StallingHTTPServer.start(answering: answer)
    var configuration = HTTPClient.Configuration()
    configuration.timeout.read = readTimeout
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let client = MatrixClient(homeserver: URL(string: "http://127.0.0.1:\(server.port)")!, httpClient: http)
    var request = MatrixRequest.v3(
      .put, ["rooms", "!r:localhost", "send", "m.room.message", "t1"], body: ["body": "hi"], accessToken: "token",
      timeout: requestTimeout)
    request.timeoutCoversBody = timeoutCoversBody
    var caught: MatrixClientError?
    do {
      _ = try await client.perform(request)
    } catch let error as MatrixClientError {
      caught = error
    }
    try await http.shutdown()
    await server.stop()
    return caught
  }
}
