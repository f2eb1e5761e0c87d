import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix messages rendered ahead of their send")
struct MatrixPreparedRenderTests {
  @Test("a prepared render is used once, and only for the very message it was made from")
  func preparedRenderMatchesMessage() async throws {
    let transport = MatrixTransport.unstarted()
    let first = OutgoingMessage(.legacy(text: "first <b>", html: nil, link: nil))
    let second = OutgoingMessage(.legacy(text: "second", html: nil, link: nil))

    await transport.prepare(first, to: "!room:localhost", idempotencyKey: "k1")
    let prepared = transport.takePrepared(first, idempotencyKey: "k1")
    #expect(prepared?.events == transport.renderer.render(first.content))
    #expect(transport.takePrepared(first, idempotencyKey: "k1") == nil)
    // The bodies are the contents as the client would encode them, one each, ready to send.
    let contents = try #require(prepared?.contents)
    #expect(contents.first?["body"]?.stringValue == "first <b>")
    let decoded = try #require(prepared?.bodies).map { try JSONDecoder().decode(JSONValue.self, from: Data($0)) }
    #expect(decoded == contents)

    // A different message under the same key (the row changed since) is rendered afresh, not taken from the cache.
    await transport.prepare(first, to: "!room:localhost", idempotencyKey: "k2")
    #expect(transport.takePrepared(second, idempotencyKey: "k2") == nil)
    #expect(transport.takePrepared(first, idempotencyKey: "k2") == nil)
  }

  @Test("rooms that stopped leave at most a bounded number of renders behind")
  func preparedRendersBounded() async {
    let transport = MatrixTransport.unstarted()
    let message = OutgoingMessage(.legacy(text: "left behind", html: nil, link: nil))
    for n in 0..<(MatrixTransport.preparedLimit * 3) {
      await transport.prepare(message, to: "!room\(n):localhost", idempotencyKey: "k\(n)")
    }
    #expect(transport.state.withLock { $0.sending.prepared.count } <= MatrixTransport.preparedLimit)
  }
}
