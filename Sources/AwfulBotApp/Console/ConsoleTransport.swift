import ChatBridge
import ChatRendering
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// A chat transport for local use: one room, `console`. Each line typed on the input is a message from a local
/// operator with the admin role; everything the bot sends is written as readable text. Works with a pipe as well
/// as a terminal. At end of input the transport keeps running (relays still print) until the service group stops.
package final class ConsoleTransport: ChatTransport, Sendable {
  package static let room = "console"
  /// Receipts remembered for resends, as many as the IRC transport keeps.
  static let receiptLimit = 2000

  package let name: String
  package let capabilities: ChatCapabilities
  package let events: AsyncStream<ChatEvent>

  /// Bounded like every transport's (`ChatEventQueue`).
  private let queue: ChatEventQueue
  private let input: FileHandle
  private let write: @Sendable (String) -> Void
  private let userName: String
  /// Distinguishes this run's message ids from an earlier run's: replies are keyed by the message they answer, and
  /// a key seen before (the outbox of the last run) would make the reply a duplicate that is never sent.
  private let session = String(UUID().uuidString.prefix(8)).lowercased()
  private let state = Mutex(State())

  private struct State {
    var sequence = 0
    var receipts: [String: DeliveryReceipt] = [:]
    /// Keys of `receipts`, oldest first: only the last `receiptLimit` are kept (a resend comes within seconds, and
    /// a bot that prints for months must not keep a receipt for every message it ever printed).
    var receiptOrder: [String] = []
    var received = 0
  }

  /// - Parameters:
  ///   - input: where lines come from (standard input by default; tests pass a pipe).
  ///   - write: where output goes, one call per message (standard output by default; tests capture it).
  package init(
    name: String = "console", input: FileHandle = .standardInput, userName: String = "operator",
    maxMessageBytes: Int = 16_000, write: @escaping @Sendable (String) -> Void = ConsoleTransport.standardOutput
  ) {
    self.name = name
    self.input = input
    self.userName = userName
    self.write = write
    self.capabilities = ChatCapabilities()
    queue = ChatEventQueue()
    events = queue.events
  }

  package static let standardOutput: @Sendable (String) -> Void = { text in
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  package func run() async throws {
    // The terminal is there as soon as the bot runs.
    queue.yield(.connection(.connected))
    for await line in LineReader.lines(from: input).cancelOnGracefulShutdown() {
      let text = line.trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { continue }
      let number = state.withLock { state -> Int in
        state.received += 1
        return state.received
      }
      // Whoever types here runs the bot's own process: the operator, with every power in both scopes.
      queue.yield(
        .message(
          IncomingMessage(
            transport: name, room: Self.room, senderID: "console:\(userName)", senderName: userName, text: text,
            messageID: "console-in-\(session)-\(number)", transportRole: .admin, configuredRole: .admin)))
    }
    // End of input is not the end of the bot: relays keep printing until the service group shuts down.
    try? await gracefulShutdown()
    queue.yield(.connection(.stopped(reason: "shut down")))
    queue.finish()
  }

  package func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws
    -> DeliveryReceipt
  {
    let (receipt, isNew) = state.withLock { state -> (DeliveryReceipt, Bool) in
      if let sent = state.receipts[idempotencyKey] { return (sent, false) }
      state.sequence += 1
      let receipt = DeliveryReceipt(id: "console-\(state.sequence)")
      state.receipts[idempotencyKey] = receipt
      state.receiptOrder.append(idempotencyKey)
      if state.receiptOrder.count > Self.receiptLimit { state.receipts[state.receiptOrder.removeFirst()] = nil }
      return (receipt, true)
    }
    // A resend after a crash or retry is acknowledged without printing twice, like a Matrix transaction id.
    if isNew { write(Self.format(message, room: room)) }
    return receipt
  }

  /// The console's renderer: `[relay] …` / `[reply] …` over the complete plain-text lines (the console has no
  /// size limit), continuation lines indented so messages stay apart in a scrolling terminal.
  package static func format(_ message: OutgoingMessage, room: String) -> String {
    let tag = message.isRelay ? "[relay]" : "[reply]"
    var lines = TextRendering.lines(message.content).map(ChatText.stripControls)
    // A relay that can be answered by reference starts with it, as on IRC (`r7 [Thread] Alice: …`).
    if let reference = message.reference, !lines.isEmpty { lines[0] = ChatText.safeLine(reference) + " " + lines[0] }
    let body = lines.enumerated().map { index, line in index == 0 ? line : "        " + line }
    return "\(tag) " + body.joined(separator: "\n")
  }
}
