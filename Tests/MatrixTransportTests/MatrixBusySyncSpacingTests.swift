import AwfulBotMatrixTestKit
import ChatBridge
import Testing

@testable import MatrixTransport

@Suite("Matrix sync spacing while the bot sends")
struct MatrixBusySyncSpacingTests {
  @Test("plain rooms only: one sync per 2 s; the bot encrypting and joined to an encrypted room: every 500 ms")
  func spacingFollowsEncryptedRooms() {
    let transport = MatrixTransport.unstarted()
    transport.state.withLock { $0.rooms.directory.joined = ["!plain:localhost"] }
    #expect(transport.busySpacing() == .seconds(2))

    // An encrypted room the bot is not in (left, or only heard of) does not count.
    transport.state.withLock { $0.rooms.directory.encrypted = ["!secret:localhost"] }
    transport.state.withLock { $0.signIn.crypto = InertEncryption() }
    #expect(transport.busySpacing() == .seconds(2))

    transport.state.withLock { _ = $0.rooms.directory.joined.insert("!secret:localhost") }
    #expect(transport.busySpacing() == .milliseconds(500))

    // Without encryption the bot sends nothing sealed, so no key can miss a member.
    transport.state.withLock { $0.signIn.crypto = nil }
    #expect(transport.busySpacing() == .seconds(2))
  }
}
