import ChatBridge
import Foundation
import Synchronization

/// A `ChatTransport` that records every send. A script of failures can be queued per room, and sends can be made to
/// hang (to stand in for a crash between send and acknowledgement).
package final class RecordingTransport: ChatTransport, Sendable {
  package struct Sent: Sendable, Hashable {
    package var room: String
    package var key: String
    package var message: OutgoingMessage
  }

  private struct State {
    var sent: [Sent] = []
    /// Errors thrown by the next sends to a room, in order.
    var failures: [String: [ChatSendError]] = [:]
    var hangs = false
    var receiptCounter = 0
  }

  package let name: String
  package let capabilities: ChatCapabilities
  package let events: AsyncStream<ChatEvent>
  private let state = Mutex(State())
  private let sentSignal: AsyncStream<Sent>.Continuation
  /// Every send as it happens (recorded before a hang).
  package let sends: AsyncStream<Sent>

  package init(name: String = "test", capabilities: ChatCapabilities = .plainText) {
    self.name = name
    self.capabilities = capabilities
    self.events = AsyncStream { $0.finish() }
    (self.sends, self.sentSignal) = AsyncStream.makeStream(of: Sent.self)
  }

  package var sent: [Sent] { state.withLock { $0.sent } }
  package func sent(to room: String) -> [Sent] { sent.filter { $0.room == room } }
  package func fail(room: String, with errors: [ChatSendError]) {
    state.withLock { $0.failures[room, default: []] += errors }
  }
  package func setHangs(_ hangs: Bool) { state.withLock { $0.hangs = hangs } }

  package func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws
    -> DeliveryReceipt
  {
    let (failure, hangs, receipt) = state.withLock { state -> (ChatSendError?, Bool, Int) in
      if var queue = state.failures[room], !queue.isEmpty {
        let error = queue.removeFirst()
        state.failures[room] = queue
        return (error, false, 0)
      }
      state.sent.append(Sent(room: room, key: idempotencyKey, message: message))
      state.receiptCounter += 1
      return (nil, state.hangs, state.receiptCounter)
    }
    if let failure { throw failure }
    sentSignal.yield(Sent(room: room, key: idempotencyKey, message: message))
    if hangs {
      // The service has the message but the acknowledgement never comes back: the process "dies" here.
      try await Task.sleep(for: .seconds(3600))
    }
    return DeliveryReceipt(id: "receipt-\(receipt)")
  }

  package func run() async throws {}
}
