import ChatBridge

/// The sends one connection has written and not yet settled, and how each will be acknowledged: by the server's
/// echo of every line (echo-message), or by the PONG to a PING written after its last line (servers handle a
/// client's lines in order). Made new with each connection (`IRCConnection`): an acknowledgement token or a count
/// of echoes means nothing on another socket, so a reconnect starts from an empty ledger and the old one's sends
/// are failed as retryable by whoever closed it (`unsettled`). Generic over what waits for a send (a continuation
/// in the client), so its bookkeeping is tested with plain values.
struct IRCSendLedger<Waiter> {
  struct InFlight {
    /// The channel or nick the lines went to.
    let target: String
    /// The outbox's idempotency key, under which the receipt is remembered.
    let key: String
    let waiter: Waiter
    var lineCount = 0
    var failure: ChatSendError?
    /// Acknowledged by the server's echo of each line rather than by a PING.
    var byEcho: Bool
    var echoed = 0
    /// Every line of the message, and how many of them the server had echoed before a restart (not written again):
    /// what `echoed(target:)` reports as the message's progress.
    var lines: [String] = []
    var skipped = 0
    var allWritten = false
    /// When the last line was written, for a send whose echoes do not all come (see `pingForMissingEchoes`).
    var allWrittenAt: ContinuousClock.Instant?
  }

  /// A send that is over: delivered with its receipt, or failed.
  struct Settled {
    let key: String
    let waiter: Waiter
    let result: Result<DeliveryReceipt, ChatSendError>
  }

  /// The connection's number, part of each receipt's id.
  let connectionID: Int
  private(set) var inFlight: [Int: InFlight] = [:]
  /// Sends fully written since the last acknowledging PING (acknowledged by PING, not echo).
  private(set) var unacknowledged: [Int] = []
  /// Each PING's token and the sends its PONG acknowledges.
  private(set) var ackTokens: [String: [Int]] = [:]

  init(connectionID: Int) { self.connectionID = connectionID }

  /// Whether the send is still being written or waiting for its acknowledgement.
  func isInFlight(_ id: Int) -> Bool { inFlight[id] != nil }

  /// The writer starts on a send.
  mutating func begin(
    id: Int, target: String, key: String, waiter: Waiter, byEcho: Bool, lines: [String] = [], skipped: Int = 0
  ) {
    inFlight[id] = InFlight(
      target: target, key: key, waiter: waiter, byEcho: byEcho, lines: lines, skipped: skipped)
  }

  /// One more line of the send is being written. Counted before the write: the server's echo of the line may be
  /// handled while the write is still suspended, and an echo must find the line it acknowledges.
  mutating func lineWritten(_ id: Int) {
    inFlight[id]?.lineCount += 1
  }

  /// A line of the send could not be made: it fails once settled, rather than going out in part.
  mutating func cannotSend(_ id: Int, _ error: ChatSendError) {
    inFlight[id]?.failure = error
  }

  /// Every line was written: an echo-acknowledged send is settled once all its echoes came (maybe already); the
  /// others wait for the next acknowledging PING.
  mutating func allWritten(_ id: Int, at now: ContinuousClock.Instant) -> Settled? {
    guard let flight = inFlight[id] else { return nil }
    guard flight.byEcho else {
      unacknowledged.append(id)
      return nil
    }
    inFlight[id]?.allWritten = true
    inFlight[id]?.allWrittenAt = now
    return finishIfEchoed(id)
  }

  /// Whether the writer should write an acknowledging PING now: sends are waiting for one, and either nothing else
  /// is ready to write or the batch is full (a failure numeric then fails at most `batch` sends' wait).
  func needsAcknowledgement(readySend: Bool, batch: Int) -> Bool {
    !unacknowledged.isEmpty && (!readySend || unacknowledged.count >= batch)
  }

  /// The sends waiting for an acknowledging PING that are still in flight (none: no PING is needed), handed to
  /// `awaitPong` with the PING's token.
  mutating func takeUnacknowledged() -> [Int] {
    defer { unacknowledged = [] }
    return unacknowledged.filter { inFlight[$0] != nil }
  }

  /// The PONG to the PING with `token` acknowledges these sends.
  mutating func awaitPong(token: String, for ids: [Int]) {
    ackTokens[token] = ids
  }

  /// A message of several lines part way through: its key and the lines the server has echoed so far.
  struct Progress: Equatable {
    let key: String
    let lines: [String]
  }

  /// Our own line came back (echo-message): it counts for the oldest send to that target still waiting for echoes.
  /// Returns the send settled by it if any, and the progress of a message of several lines not yet settled.
  mutating func echoed(target: String) -> (settled: Settled?, progress: Progress?) {
    let folded = IRCCaseMapping.fold(target)
    guard
      let id = inFlight.filter({
        $0.value.byEcho && IRCCaseMapping.fold($0.value.target) == folded && $0.value.echoed < $0.value.lineCount
      }).keys.min(), var flight = inFlight[id]
    else { return (nil, nil) }
    flight.echoed += 1
    inFlight[id] = flight
    if let settled = finishIfEchoed(id) { return (settled, nil) }
    let done = flight.skipped + flight.echoed
    guard flight.lines.count > 1, done < flight.lines.count else { return (nil, nil) }
    return (nil, Progress(key: flight.key, lines: Array(flight.lines.prefix(done))))
  }

  /// Sends whose echoes have not all come `wait` after their last line (a server that drops a line without an
  /// error numeric, or echoes it changed beyond recognition): from now on they wait for a PING's PONG instead
  /// (hand them to `awaitPong`). Empty when none is overdue (then no PING is needed).
  mutating func takeMissingEchoes(now: ContinuousClock.Instant, wait: Duration) -> [Int] {
    let overdue = inFlight.filter {
      $0.value.byEcho && $0.value.allWritten && ($0.value.allWrittenAt.map { now - $0 > wait } ?? false)
    }.keys.sorted()
    for id in overdue { inFlight[id]?.byEcho = false }
    return overdue
  }

  /// The PONG to a PING of ours: every send it covers was handled by the server, in the order they were sent.
  mutating func acknowledge(token: String) -> [Settled] {
    guard let ids = ackTokens.removeValue(forKey: token) else { return [] }
    return ids.compactMap { id in inFlight.removeValue(forKey: id).map { settle(id, $0) } }
  }

  /// An error numeric about `target`: the oldest send to it not already failing fails. An echo-acknowledged send
  /// is settled at once (a refused line is never echoed); the others when their PONG comes. Returns whether a send
  /// took the error, and the send settled now if any.
  mutating func refused(target: String, error: ChatSendError) -> (matched: Bool, settled: Settled?) {
    let folded = IRCCaseMapping.fold(target)
    guard
      let id = inFlight.filter({ IRCCaseMapping.fold($0.value.target) == folded && $0.value.failure == nil })
        .keys.min()
    else { return (false, nil) }
    inFlight[id]?.failure = error
    guard let flight = inFlight[id], flight.byEcho else { return (true, nil) }
    inFlight[id] = nil
    return (true, Settled(key: flight.key, waiter: flight.waiter, result: .failure(error)))
  }

  /// What still waits when the connection is gone, oldest first: its lines may or may not have arrived, so the
  /// caller fails them as retryable (the outbox sends them again).
  var unsettled: [Waiter] {
    inFlight.keys.sorted().compactMap { inFlight[$0]?.waiter }
  }

  private mutating func finishIfEchoed(_ id: Int) -> Settled? {
    guard let flight = inFlight[id], flight.allWritten, flight.echoed >= flight.lineCount else { return nil }
    inFlight[id] = nil
    return settle(id, flight)
  }

  private func settle(_ id: Int, _ flight: InFlight) -> Settled {
    if let failure = flight.failure {
      return Settled(key: flight.key, waiter: flight.waiter, result: .failure(failure))
    }
    let receipt = DeliveryReceipt(id: "irc:\(connectionID).\(id):\(flight.lineCount)")
    return Settled(key: flight.key, waiter: flight.waiter, result: .success(receipt))
  }
}

extension IRCSendLedger: Sendable where Waiter: Sendable {}
extension IRCSendLedger.InFlight: Sendable where Waiter: Sendable {}
extension IRCSendLedger.Settled: Sendable where Waiter: Sendable {}
