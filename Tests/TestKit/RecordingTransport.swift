import ChatBridge
import Foundation
import Synchronization

/// A `ChatTransport` that records every send, and the one stand-in for a chat service in the tests:
/// - a script of failures can be queued per room (`fail(room:with:)`), thrown before the send;
/// - an error can be thrown after the send went out (`setFailureAfterSend`), and sends can be made to hang
///   (`setHangs`): both stand in for a crash between a send and its acknowledgement;
/// - its events (messages, membership and connection changes) come from a stream the test writes
///   (`init(events:)`), or end at once;
/// - it can hand every send on to a real transport (`init(forwardingTo:)`), recording it on the way.
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
    /// Thrown by every send once it has gone out (and been recorded).
    var failureAfterSend: (any Error)?
    var hangs = false
    var receiptCounter = 0
    var redactions: [Redaction] = []
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
  /// The transport every send is handed on to, when there is one.
  private let inner: (any ChatTransport)?
  private let state = Mutex(State())
  private let sentSignal: AsyncStream<Sent>.Continuation
  /// Every send as it happens (recorded before a hang).
  package let sends: AsyncStream<Sent>

  /// A transport of its own. `events` is what the transport "receives" (make one with `AsyncStream.makeStream` and
  /// yield to its continuation); without it the events end at once.
  package init(
    name: String = "test", capabilities: ChatCapabilities = .plainText, events: AsyncStream<ChatEvent>? = nil
  ) {
    self.name = name
    self.capabilities = capabilities
    self.events = events ?? AsyncStream { $0.finish() }
    self.inner = nil
    (self.sends, self.sentSignal) = AsyncStream.makeStream(of: Sent.self)
  }

  /// A transport in front of `inner` (with its name and capabilities): every send goes out through `inner`, returns
  /// its receipt and is recorded; then `failingAfterSendWith`, when given, is thrown, as if the process died after
  /// the service took the message and before anyone marked it sent. Its own events end at once.
  package init(forwardingTo inner: any ChatTransport, failingAfterSendWith failure: (any Error)? = nil) {
    self.name = inner.name
    self.capabilities = inner.capabilities
    self.events = AsyncStream { $0.finish() }
    self.inner = inner
    (self.sends, self.sentSignal) = AsyncStream.makeStream(of: Sent.self)
    state.withLock { $0.failureAfterSend = failure }
  }

  /// A message taken back (`redact`).
  package struct Redaction: Sendable, Hashable {
    package var room: String
    package var messageID: String
    package var reason: String?

    package init(room: String, messageID: String, reason: String?) {
      self.room = room
      self.messageID = messageID
      self.reason = reason
    }
  }

  package var sent: [Sent] { state.withLock { $0.sent } }
  package var redactions: [Redaction] { state.withLock { $0.redactions } }
  package var prepared: [Sent] { state.withLock { $0.prepared } }
  package func sent(to room: String) -> [Sent] { sent.filter { $0.room == room } }
  package func fail(room: String, with errors: [ChatSendError]) {
    state.withLock { $0.failures[room, default: []] += errors }
  }
  /// Every send from now on goes out, is recorded, and then throws `error` (nil: sends succeed again).
  package func setFailureAfterSend(_ error: (any Error)?) { state.withLock { $0.failureAfterSend = error } }
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
    let failure = state.withLock { state -> ChatSendError? in
      guard var queue = state.failures[room], !queue.isEmpty else { return nil }
      let error = queue.removeFirst()
      state.failures[room] = queue
      return error
    }
    if let failure { throw failure }
    let forwarded = try await inner?.send(message, to: room, idempotencyKey: idempotencyKey)
    let sent = Sent(room: room, key: idempotencyKey, message: message)
    let (afterSend, hangs, receipt) = state.withLock { state -> ((any Error)?, Bool, Int) in
      state.sent.append(sent)
      state.receiptCounter += 1
      return (state.failureAfterSend, state.hangs, state.receiptCounter)
    }
    sentSignal.yield(sent)
    if hangs {
      // The service has the message but the acknowledgement never comes back: the process "dies" here.
      try await Task.sleep(for: .seconds(3600))
    }
    if let afterSend { throw afterSend }
    return forwarded ?? DeliveryReceipt(id: "receipt-\(receipt)")
  }

  package func redact(_ messageID: String, in room: String, reason: String?) async throws {
    try await inner?.redact(messageID, in: room, reason: reason)
    state.withLock { $0.redactions.append(Redaction(room: room, messageID: messageID, reason: reason)) }
  }

  package func prepare(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async {
    state.withLock { $0.prepared.append(Sent(room: room, key: idempotencyKey, message: message)) }
    await inner?.prepare(message, to: room, idempotencyKey: idempotencyKey)
  }

  package func run() async throws {}
}
