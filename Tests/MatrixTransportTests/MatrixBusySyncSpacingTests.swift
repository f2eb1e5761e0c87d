import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix sync spacing while the bot sends")
struct MatrixBusySyncSpacingTests {
  func transport() -> MatrixTransport {
    MatrixTransport(
      configuration: MatrixTransportConfiguration(
        name: "matrix", homeserver: URL(string: "http://127.0.0.1:9")!, userID: "@bot:localhost",
        accessToken: "unused"),
      stateStore: InMemoryTransportStateStore(), logger: .quiet())
  }

  @Test("plain rooms only: one sync per 2 s; the bot encrypting and joined to an encrypted room: every 500 ms")
  func spacingFollowsEncryptedRooms() {
    let transport = transport()
    transport.state.withLock { $0.directory.joined = ["!plain:localhost"] }
    #expect(transport.busySpacing() == .seconds(2))

    // An encrypted room the bot is not in (left, or only heard of) does not count.
    transport.state.withLock { $0.directory.encrypted = ["!secret:localhost"] }
    transport.state.withLock { $0.crypto = InertEncryption() }
    #expect(transport.busySpacing() == .seconds(2))

    transport.state.withLock { _ = $0.directory.joined.insert("!secret:localhost") }
    #expect(transport.busySpacing() == .milliseconds(500))

    // Without encryption the bot sends nothing sealed, so no key can miss a member.
    transport.state.withLock { $0.crypto = nil }
    #expect(transport.busySpacing() == .seconds(2))
  }
}

/// Stands in for libolm where only "encryption is on" matters.
private struct InertEncryption: MatrixEncryption {
  func start() async throws {}
  func receive(_ sync: MatrixSyncResponse) async -> [MatrixMegolmSessionID] { [] }
  func membersChanged(room: String, someoneLeft: Bool) async {}
  func decrypt(_ event: MatrixEvent, room: String) async -> MatrixDecryption { .failed("inert") }
  func encrypt(_ content: JSONValue, type: String, room: String, transactionID: String) async throws -> JSONValue {
    content
  }
  func fingerprint() async -> String? { nil }
  func sharedRooms() async -> Set<String> { [] }
}

@Suite("Matrix messages rendered ahead of their send")
struct MatrixPreparedRenderTests {
  @Test("a prepared render is used once, and only for the very message it was made from")
  func preparedRenderMatchesMessage() async {
    let transport = MatrixBusySyncSpacingTests().transport()
    let first = OutgoingMessage(.legacy(text: "first <b>", html: nil, link: nil))
    let second = OutgoingMessage(.legacy(text: "second", html: nil, link: nil))

    await transport.prepare(first, to: "!room:localhost", idempotencyKey: "k1")
    #expect(transport.takePrepared(first, idempotencyKey: "k1") == transport.renderer.render(first.content))
    #expect(transport.takePrepared(first, idempotencyKey: "k1") == nil)

    // A different message under the same key (the row changed since) is rendered afresh, not taken from the cache.
    await transport.prepare(first, to: "!room:localhost", idempotencyKey: "k2")
    #expect(transport.takePrepared(second, idempotencyKey: "k2") == nil)
    #expect(transport.takePrepared(first, idempotencyKey: "k2") == nil)
  }

  @Test("rooms that stopped leave at most a bounded number of renders behind")
  func preparedRendersBounded() async {
    let transport = MatrixBusySyncSpacingTests().transport()
    let message = OutgoingMessage(.legacy(text: "left behind", html: nil, link: nil))
    for n in 0..<(MatrixTransport.preparedLimit * 3) {
      await transport.prepare(message, to: "!room\(n):localhost", idempotencyKey: "k\(n)")
    }
    #expect(transport.state.withLock { $0.prepared.count } <= MatrixTransport.preparedLimit)
  }
}
