import AwfulBotTestKit
import ChatBridge
import Foundation

@testable import MatrixTransport

extension MatrixTransport {
  /// A transport that is never run (nothing listens at its homeserver), for tests of its state alone.
  static func unstarted() -> MatrixTransport {
    MatrixTransport(
      configuration: MatrixTransportConfiguration(
        name: "matrix", homeserver: URL(string: "http://127.0.0.1:9")!, userID: "@bot:localhost",
        accessToken: "unused"),
      stateStore: InMemoryTransportStateStore(), logger: .quiet())
  }
}
