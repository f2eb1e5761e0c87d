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
    /// What `prepare` was handed, in order.
    var prepared: [Sent] = []
    /// Errors thrown by the next sends to a room, in order.
    var failures: [String: [ChatSendError]] = [:]
    var hangs = false
    var receiptCounter = 0
    /// Names resolved to ids, as a Matrix alias is; while `resolving` is false, resolving any of them fails.
    var aliases: [String: String] = [:]
    var resolving = true
    var resolveAttempts = 0
  }

  /// What resolving an alias throws while the transport "cannot reach its service".
  package struct Unreachable: Error, CustomStringConvertible {
    package var description: String { "the chat service cannot be reached" }
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
  package var prepared: [Sent] { state.withLock { $0.prepared } }
  package func sent(to room: String) -> [Sent] { sent.filter { $0.room == room } }
  package func fail(room: String, with errors: [ChatSendError]) {
    state.withLock { $0.failures[room, default: []] += errors }
  }
  package func setHangs(_ hangs: Bool) { state.withLock { $0.hangs = hangs } }
  /// Names the transport resolves to ids (others resolve to themselves), and whether it can reach its service to
  /// do so now.
  package func setAliases(_ aliases: [String: String], resolving: Bool) {
    state.withLock {
      $0.aliases = aliases
      $0.resolving = resolving
    }
  }
  package func setResolving(_ resolving: Bool) { state.withLock { $0.resolving = resolving } }
  /// How many times an alias was looked up (successfully or not).
  package var resolveAttempts: Int { state.withLock { $0.resolveAttempts } }

  package func resolveRoom(_ reference: String) async throws -> String {
    try state.withLock { state in
      guard let id = state.aliases[reference] else { return reference }
      state.resolveAttempts += 1
      guard state.resolving else { throw Unreachable() }
      return id
    }
  }

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

  package func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async {
    state.withLock { $0.prepared.append(Sent(room: room, key: idempotencyKey, message: message)) }
  }

  package func run() async throws {}
}
