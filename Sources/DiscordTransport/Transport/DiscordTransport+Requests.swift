import ChatBridge
import ForumModel
import Foundation
import Logging
import ServiceLifecycle

extension DiscordTransport {
  /// One request under the rate limits and the retry rules, for a send, an edit or a removal:
  /// - waits out a webhook's bucket that the last answer said is empty (`X-RateLimit-Remaining: 0`, until
  ///   `X-RateLimit-Reset-After`) and any global 429, before the request goes;
  /// - on a 429 waits `retry_after` (the body's, else `Retry-After`, else the bucket's reset) and tries again;
  /// - retries a 5xx or a request without an answer `sendAttempts` times in all, backing off;
  /// - gives up with `ChatSendError.retryable` when the rate limits would make it wait more than
  ///   `maximumRateLimitWaitSeconds` in all (with Discord's wait as `after`), or the tries are used up.
  /// Any other answer (2xx, or a 4xx the caller reads) is returned.
  func request(
    _ method: DiscordWebhookClient.Method, _ url: String, webhook: DiscordWebhook, room: String, logPath: String,
    body: [UInt8]? = nil
  ) async throws -> DiscordAnswer {
    let (maximumWait, attempts) = state.withLock {
      (Clamp.seconds($0.configuration.maximumRateLimitWaitSeconds, atMost: Clamp.day), $0.configuration.sendAttempts)
    }
    var waited = Duration.zero
    var failures = 0
    var tooManyRequests = 0
    while true {
      let hold = state.withLock { $0.limits.wait(webhook: webhook.id, now: .now) }
      if hold > .zero {
        try await rateLimitWait(hold, waited: &waited, maximum: maximumWait, room: room, reason: "Discord's rate limit")
      }
      let answer: DiscordAnswer
      do {
        answer = try await client.perform(method, url, webhook: webhook, logPath: logPath, body: body)
      } catch let failure as DiscordWebhookClient.NetworkFailure {
        failures += 1
        let reason = "Discord cannot be reached: \(webhook.scrubbed(failure.reason))"
        try await failedTry(
          failures, of: attempts, reason: reason, metadata: ["room": "\(room)", "error": "\(reason)"])
        continue
      }
      let now = ContinuousClock.now
      state.withLock { $0.limits.record(answer.rateLimit, webhook: webhook.id, now: now) }
      switch answer.status {
      case 429:
        let error = answer.error
        let global = error.global || answer.rateLimit.global
        // At least a tenth of a second: a 429 that says 0 (or nothing readable) must not turn into a busy loop.
        let asked = error.retryAfter ?? answer.rateLimit.retryAfter ?? answer.rateLimit.resetAfter ?? .seconds(1)
        let wait = max(asked, Self.minimumRateLimitWait)
        tooManyRequests += 1
        if tooManyRequests > Self.maximumRateLimitAnswers {
          throw ChatSendError.retryable(
            reason: "Discord answered \(tooManyRequests) rate limits in a row for room \(room)", after: wait)
        }
        state.withLock { $0.limits.record429(wait: wait, global: global, webhook: webhook.id, now: now) }
        logger.debug(
          "Discord rate limit",
          metadata: ["room": "\(room)", "global": "\(global)", "waitMs": "\(wait.wholeMilliseconds)"])
        setConnection(.connected)
      case 500...:
        failures += 1
        try await failedTry(
          failures, of: attempts, reason: "Discord answered \(answer.status)",
          metadata: ["room": "\(room)", "status": "\(answer.status)"])
      default:
        setConnection(.connected)
        return answer
      }
    }
  }

  /// The `failures`th failed try (no answer, or a 5xx): with the tries used up the row goes back to the dispatcher
  /// and the transport says it is retrying; otherwise the next try follows a backoff.
  private func failedTry(_ failures: Int, of attempts: Int, reason: String, metadata: Logger.Metadata) async throws {
    if failures >= attempts {
      setConnection(.retrying(reason: reason))
      throw ChatSendError.retryable(reason: reason, after: nil)
    }
    logger.info("Discord request failed, retrying", metadata: metadata)
    try await pause(Self.backoff(failures), reason: reason)
  }

  /// Waits `hold` for a rate limit, unless that takes the send's rate-limit waits past `maximum`: then the row goes
  /// back to the dispatcher, to be tried when Discord said.
  private func rateLimitWait(
    _ hold: Duration, waited: inout Duration, maximum: Duration, room: String, reason: String
  ) async throws {
    guard waited + hold <= maximum else {
      throw ChatSendError.retryable(
        reason: "\(reason) asks to wait \(hold) before sending to room \(room)", after: hold)
    }
    waited += hold
    state.withLock { state in
      if state.rateLimitWaits.count >= 100 { state.rateLimitWaits.removeFirst() }
      state.rateLimitWaits.append(hold)
    }
    try await pause(hold, reason: reason)
  }

  static let minimumRateLimitWait = Duration.milliseconds(100)
  /// 429s one request takes before its row goes back to the dispatcher, however short their waits.
  static let maximumRateLimitAnswers = 30

  /// 0.5 s, 1 s, 2 s … at most 30 s.
  static func backoff(_ failures: Int) -> Duration {
    min(.milliseconds(500) * (1 << min(max(failures - 1, 0), 10)), .seconds(30))
  }

  /// Waits between tries. Nothing is in flight then, so a graceful shutdown ends the wait at once with a retryable
  /// error: the row stays queued for the next start instead of holding up the shutdown.
  private func pause(_ delay: Duration, reason: String) async throws {
    do {
      try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
    } catch is CancellationError {
      if Task.isCancelled { throw CancellationError() }
      throw ChatSendError.retryable(reason: "shutting down while waiting: \(reason)", after: .seconds(5))
    }
  }

  /// A 4xx other than 429 as a permanent failure naming the cause: what Discord said (its code and sentence), what
  /// it means for the operator, never the webhook's token.
  func refusal(_ answer: DiscordAnswer, room: String, webhook: DiscordWebhook, doing action: String) -> ChatSendError {
    let error = answer.error
    var said = "\(answer.status)"
    if let code = error.code { said += ", code \(code)" }
    // The token is blanked out before the sentence is shortened, so no cut can leave a piece of it.
    if let message = error.message.map({ DiscordErrorBody.shortened(webhook.scrubbed($0)) }), !message.isEmpty {
      said += ": \(message)"
    }
    let reason: String
    switch (answer.status, error.code) {
    case (404, DiscordErrorCode.unknownWebhook), (404, nil):
      reason =
        "the Discord webhook of room \(room) (\(webhook)) no longer exists (\(said)); make a new one in the channel's "
        + "settings and put its URL in the configuration"
    case (401, _), (_, DiscordErrorCode.invalidWebhookToken):
      reason =
        "Discord refused the token of room \(room)'s webhook (\(webhook), \(said)); it was reset: put the new URL in "
        + "the configuration"
    case (404, DiscordErrorCode.unknownMessage):
      reason =
        "the Discord message to \(action.replacingOccurrences(of: " a message", with: "")) in room \(room) is gone (\(said))"
    case (403, _):
      reason = "Discord does not let room \(room)'s webhook \(action) (\(said))"
    case (413, _), (_, DiscordErrorCode.invalidFormBody):
      reason = "Discord refused the message for room \(room) as invalid (\(said))"
    default:
      reason = "Discord refused to \(action) in room \(room) (\(said))"
    }
    logger.warning("Discord refused a request", metadata: ["room": "\(room)", "status": "\(answer.status)"])
    return .permanent(reason: reason)
  }
}
