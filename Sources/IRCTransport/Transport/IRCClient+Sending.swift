import ChatBridge
import Foundation
import Logging

/// Sending: every send joins one FIFO queue served by one writer per connection, so lines of a message stay
/// together, sends to one room keep their order, and the flood-control bucket is shared. A message counts as
/// delivered when the server has answered a PING written after its last line: servers handle a client's lines in
/// order, so by then the lines were accepted (or refused with an error numeric, which fails the send). Where the
/// server has echo-message, its echo of every line acknowledges the send instead, so a relayed post costs one line
/// of the flood budget, not two; otherwise one PING acknowledges several ready sends (up to `acknowledgementBatch`).
extension IRCClient {
  /// Sends and waits for the server's acknowledgement; waits at most `sendWaitSeconds` for a connection and the
  /// channel join, then fails as retryable so the outbox keeps the message.
  nonisolated func send(_ message: OutgoingMessage, to room: String, key: String) async throws -> DeliveryReceipt {
    let id = await reserveSendID()
    if let receipt = await receipt(for: key) { return receipt }
    let wait = Duration.milliseconds(Int64(sendWaitSeconds * 1000))
    return try await withThrowingTaskGroup(of: DeliveryReceipt?.self) { group in
      group.addTask { try await self.enqueue(id: id, message: message, to: room, key: key) }
      group.addTask {
        try? await Task.sleep(for: wait)
        await self.expire(id: id)
        return nil
      }
      while let result = try await group.next() {
        if let receipt = result {
          group.cancelAll()
          await lineProgress.deliver(key: key)
          return receipt
        }
      }
      throw ChatSendError.retryable(reason: "IRC send ended without an answer", after: nil)
    }
  }

  private func reserveSendID() -> Int {
    nextSendID += 1
    return nextSendID
  }

  /// A message already delivered under this key (a retry after a lost receipt) is not sent twice.
  private func receipt(for key: String) -> DeliveryReceipt? { receipts[key] }

  private func enqueue(id: Int, message: OutgoingMessage, to room: String, key: String) async throws
    -> DeliveryReceipt
  {
    if shuttingDown { throw ChatSendError.retryable(reason: "the IRC transport is shutting down", after: nil) }
    let target = room
    guard !target.isEmpty, !target.contains(" "), !target.contains(","),
      !target.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F })
    else { throw ChatSendError.permanent(reason: "“\(room)” is not an IRC channel or nick") }
    return try await withCheckedThrowingContinuation { continuation in
      queue.append(PendingSend(id: id, target: target, message: message, key: key, continuation: continuation))
      wakeWriter()
    }
  }

  /// The wait is over: a send still queued fails as retryable; one being written finishes on its own.
  private func expire(id: Int) {
    guard let index = queue.firstIndex(where: { $0.id == id }) else { return }
    let send = queue.remove(at: index)
    let reason =
      connection.link == nil
      ? "not connected to IRC" : "not in \(send.target) yet (joining)"
    send.continuation.resume(throwing: ChatSendError.retryable(reason: reason, after: nil))
  }

  func wakeWriter() {
    let waiter = writerWaiter
    writerWaiter = nil
    waiter?.resume()
  }

  // MARK: The writer

  /// Most sends one acknowledging PING covers: a failure numeric then fails at most this many sends' wait.
  static let acknowledgementBatch = 8

  /// Runs for one connection: takes the oldest send whose target is ready, writes its lines through the flood
  /// bucket, and writes the acknowledging PING once nothing else is ready (or the batch is full).
  func writerLoop() async {
    guard connection.link != nil else { return }
    let linkID = connection.id
    while !Task.isCancelled, connection.isOpen(linkID) {
      if connection.ledger.needsAcknowledgement(readySend: hasReadySend(), batch: Self.acknowledgementBatch) {
        await writeAcknowledgement(linkID: linkID)
      }
      guard let send = await nextReadySend(linkID: linkID) else { return }
      await write(send, linkID: linkID)
    }
  }

  /// Whether a queued send could be written now (without joining first).
  private func hasReadySend() -> Bool {
    queue.contains { if case .ready = readiness(of: $0.target) { true } else { false } }
  }

  /// One PING after the lines of every send written since the last one; its PONG delivers them all.
  private func writeAcknowledgement(linkID: Int) async {
    let ids = connection.ledger.takeUnacknowledged()
    guard !ids.isEmpty, connection.isOpen(linkID), let link = connection.link else { return }
    let token = connection.nextToken("ack")
    connection.ledger.awaitPong(token: token, for: ids)
    try? await connection.bucket.acquire()
    do {
      try await link.writer.write(try IRCMessage(command: .ping, parameters: [token]).serialized)
    } catch {
      logger.debug("acknowledgement ping not written", metadata: ["error": "\(error)"])
    }
  }

  private func nextReadySend(linkID: Int) async -> PendingSend? {
    while connection.isOpen(linkID) && !Task.isCancelled {
      // The scan does not suspend, so the queue cannot change under it and no wake-up is missed.
      var joins: [String] = []
      var index = 0
      while index < queue.count {
        switch readiness(of: queue[index].target) {
        case .ready:
          return queue.remove(at: index)
        case .readyAs(let nick):
          var send = queue.remove(at: index)
          send.target = nick
          return send
        case .wait:
          index += 1
        case .join(let channel):
          joins.append(channel)
          index += 1
        case .fail(let error):
          let send = queue.remove(at: index)
          send.continuation.resume(throwing: error)
        }
      }
      if !joins.isEmpty {
        for channel in joins { await join(channel) }
        continue
      }
      await withCheckedContinuation { writerWaiter = $0 }
    }
    return nil
  }

  /// How often a message for an account nobody is logged in as is tried again.
  static let unreachableRetry = Duration.seconds(20)

  private enum Readiness {
    case ready
    /// An account's room: ready, sent to the nick it is known under now.
    case readyAs(String)
    case wait
    /// Not in the channel and not joining it yet.
    case join(String)
    case fail(ChatSendError)
  }

  /// Nicks are ready once registered; channels once joined. A channel not joined is joined now (the engine only
  /// sends to rooms it was asked to serve), unless the bot was kicked from it or the join was refused.
  private func readiness(of target: String) -> Readiness {
    guard connection.registration.registered else { return .wait }
    if let account = IRCQueryPartners.account(inRoom: target) {
      let visible = { (nick: String) in self.membership.channels.values.contains { $0.contains(nick) } }
      guard let nick = partners.nick(forAccount: account, visible: visible, now: clock.now) else {
        return .fail(
          .unreachable(
            reason: "nobody logged in as \(account) is online where the bot can see them",
            after: Self.unreachableRetry))
      }
      return .readyAs(nick)
    }
    guard IRCChannelName.isChannel(target) else {
      partners.follow(nickRoom: target)
      return .ready
    }
    let folded = IRCCaseMapping.fold(target)
    if connection.membership.channels[folded] != nil { return .ready }
    if let failure = connection.membership.joinFailures[folded] { return .fail(.permanent(reason: failure)) }
    if let refusal = wishes.refusal(target) { return .fail(.permanent(reason: refusal)) }
    return connection.membership.joining.contains(folded) ? .wait : .join(target)
  }

  private func write(_ send: PendingSend, linkID: Int) async {
    await watchPartners()
    // The connection may have closed while MONITOR was written: the send then fails as retryable, as the sends
    // written on that connection did.
    guard connection.isOpen(linkID) else {
      send.continuation.resume(
        throwing: ChatSendError.retryable(reason: "the IRC connection closed while sending", after: nil))
      return
    }
    let command: IRCCommand =
      send.message.isRelay && configuration.relayAs == .notice ? .notice : .privmsg
    let budget = lineBudget(command: command, target: send.target)
    // An edit of a relay (in a channel whose `editNotices` setting is on): IRC cannot change a line, so one line
    // says so.
    let lines =
      send.message.replaces != nil
      ? renderer.editLines(for: send.message.content, maxBytesPerLine: budget)
      : renderer.lines(for: send.message.content, maxBytesPerLine: budget, reference: send.message.reference)
    // Sent before, and stopped part way: the lines the server echoed then are not said again (when this rendering
    // starts with the very same lines).
    let echoedBefore = lines.count > 1 ? await lineProgress.linesEchoed(key: send.key) : []
    let skipped =
      !echoedBefore.isEmpty && echoedBefore.count <= lines.count
        && Array(lines.prefix(echoedBefore.count)) == echoedBefore
      ? echoedBefore.count : 0
    if skipped > 0 {
      logger.info(
        "a message the bot stopped in goes on after the lines the server had",
        metadata: ["target": "\(send.target)", "lines": "\(lines.count)", "skipped": "\(skipped)"])
    }
    guard connection.isOpen(linkID) else {
      send.continuation.resume(
        throwing: ChatSendError.retryable(reason: "the IRC connection closed while sending", after: nil))
      return
    }
    connection.ledger.begin(
      id: send.id, target: send.target, key: send.key, waiter: send.continuation,
      byEcho: connection.registration.enabledCaps.contains("echo-message"), lines: lines, skipped: skipped)
    let bucket = connection.bucket
    for text in lines.dropFirst(skipped) {
      let line: IRCMessage
      do {
        line = try IRCMessage(command: command, parameters: [send.target, text])
      } catch {
        // Cannot happen for sanitised text; if it does, the message fails rather than going out in part.
        connection.ledger.cannotSend(send.id, .permanent(reason: "not sendable on IRC: \(error)"))
        break
      }
      do {
        try await bucket.acquire()
      } catch {
        return
      }
      // A closed connection took its ledger with it and failed this send as retryable.
      guard connection.isOpen(linkID), let link = connection.link else { return }
      connection.ledger.lineWritten(send.id)
      do {
        try await link.writer.write(line.serialized)
      } catch {
        // The connection is closing: `closed()` fails this send as retryable.
        logger.debug("line not written", metadata: ["error": "\(error)"])
        return
      }
    }
    guard connection.isOpen(linkID) else { return }
    settle(connection.ledger.allWritten(send.id, at: clock.now))
  }

  /// Our own line came back (echo-message): it counts for the oldest send to that target still waiting for echoes.
  /// A message of several lines part way through keeps how far it got (`IRCLineProgress`).
  func acknowledgeEcho(target: String?) async {
    guard let target else { return }
    let (settled, progress) = connection.ledger.echoed(target: target)
    settle(settled)
    if let progress { await lineProgress.echo(key: progress.key, lines: progress.lines) }
  }

  /// How long a written send waits for its echoes before a PING settles it instead.
  static let echoWait = Duration.seconds(10)

  /// Sends whose echoes have not all come `echoWait` after their last line are settled by one PING instead, whose
  /// PONG means the server has handled every line before it (see `IRCSendLedger.takeMissingEchoes`). Without
  /// this such a send would wait for ever and hold up its room.
  func settleMissingEchoes(now: ContinuousClock.Instant) async {
    let overdue = connection.ledger.takeMissingEchoes(now: now, wait: Self.echoWait)
    guard !overdue.isEmpty else { return }
    let token = connection.nextToken("ack")
    connection.ledger.awaitPong(token: token, for: overdue)
    logger.info("echoes missing, acknowledging by PING", metadata: ["sends": "\(overdue.count)"])
    if let ping = try? IRCMessage(command: .ping, parameters: [token]) { await write(ping) }
  }

  /// The PONG for a send's PING: every line before it was handled by the server.
  func acknowledge(token: String) {
    for settled in connection.ledger.acknowledge(token: token) { settle(settled) }
  }

  /// An error numeric about a target: the oldest send to it that is being written or acknowledged fails.
  func sendFailed(numeric: Int, target: String?, reason: String) {
    guard let target else { return }
    let error: ChatSendError
    switch numeric {
    case 401, 403:
      error = .permanent(reason: "\(target): \(reason)")
    case 404, 442:
      // Not in the channel after all (or moderated): join again and retry later.
      error = .retryable(reason: "\(target): \(reason)", after: .seconds(5))
    default:
      error = .permanent(reason: "\(target): \(reason) (\(numeric))")
    }
    let (matched, settled) = connection.ledger.refused(target: target, error: error)
    guard matched else { return }
    if numeric == 404 || numeric == 442 { connection.membership.channels[IRCCaseMapping.fold(target)] = nil }
    logger.warning("send refused by the server", metadata: ["target": "\(target)", "numeric": "\(numeric)"])
    settle(settled)
  }

  /// A send is over: its waiter learns how, and a delivered one's receipt is remembered under its key.
  private func settle(_ settled: IRCSendLedger<CheckedContinuation<DeliveryReceipt, any Error>>.Settled?) {
    guard let settled else { return }
    switch settled.result {
    case .success(let receipt):
      receipts.remember(receipt, for: settled.key)
      settled.waiter.resume(returning: receipt)
    case .failure(let error):
      settled.waiter.resume(throwing: error)
    }
  }

  /// Bytes of text one line may carry: 512 minus what the server puts around it when relaying it to others,
  /// `:nick!user@host COMMAND target :` and CR LF. Until the server has shown our user and host, the longest
  /// plausible ones are assumed.
  func lineBudget(command: IRCCommand, target: String) -> Int {
    let user = connection.registration.selfUser ?? ("~" + String(configuration.effectiveUsername.prefix(10)))
    let hostBytes = connection.registration.selfHost?.utf8.count ?? 63
    let overhead =
      1 + connection.registration.currentNick.utf8.count + 1 + user.utf8.count + 1 + hostBytes + 1
      + command.rawValue.utf8.count
      + 1
      + target.utf8.count + 2 + 2
    return 512 - overhead
  }
}
