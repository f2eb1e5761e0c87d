import ChatBridge
import MatrixModel

/// What to do after a failed homeserver call. Pure, so the rules are tested without a server.
package enum MatrixRetryDecision: Sendable, Hashable {
  /// Sleep this long, then repeat the call.
  case wait(Duration)
  /// The access token was rejected: log in again (password configured) and repeat.
  case renewToken
  /// Stop trying here; a send hands this to the dispatcher.
  case giveUp(ChatSendError)
}

/// Rules for retrying: 429 waits as long as the homeserver asks, 5xx and network errors back off exponentially,
/// an unknown token means a new login, `M_FORBIDDEN` and other client errors are final for that message.
package struct MatrixRetryPolicy: Sendable, Hashable {
  /// A send waits out rate limits inside the call up to this much in total, so a 429 storm delays messages but keeps
  /// their order and does not use up the dispatcher's attempts; past it the dispatcher reschedules the row.
  package var maximumRateLimitWait: Duration
  /// 5xx/network failures a send retries itself before handing the row back to the dispatcher.
  package var sendAttempts: Int
  package var backoffBase: Duration
  package var maximumBackoff: Duration
  /// When the homeserver says 429 without saying how long.
  package var defaultRateLimitWait: Duration
  /// At start, how often `/versions` and sign-in are tried before the homeserver is declared unreachable, and how
  /// long each try may take (a refused connection is retried by the HTTP client until then). The default (8, with
  /// the backoff about a minute of waiting) rides out a homeserver that boots next to the bot (the compose file, one
  /// host after a reboot); giving up sooner would end the bot — and its IRC connections — over and over.
  package var startupAttempts: Int
  package var startupRequestTimeout: Duration

  package init(
    maximumRateLimitWait: Duration = .seconds(120), sendAttempts: Int = 3, backoffBase: Duration = .milliseconds(500),
    maximumBackoff: Duration = .seconds(30), defaultRateLimitWait: Duration = .seconds(1), startupAttempts: Int = 8,
    startupRequestTimeout: Duration = .seconds(10)
  ) {
    self.startupAttempts = startupAttempts
    self.startupRequestTimeout = startupRequestTimeout
    self.maximumRateLimitWait = maximumRateLimitWait
    self.sendAttempts = sendAttempts
    self.backoffBase = backoffBase
    self.maximumBackoff = maximumBackoff
    self.defaultRateLimitWait = defaultRateLimitWait
  }

  /// The exponential delay before retry number `attempt` (1-based), capped.
  package func backoff(attempt: Int) -> Duration {
    let exponent = min(max(attempt - 1, 0), 20)
    return min(backoffBase * (1 << exponent), maximumBackoff)
  }

  /// For `send`. `attempt` counts failed calls of this send so far (1 after the first failure); `rateLimitWaited`
  /// is the time already spent waiting out 429s; `canRenewToken` is false without a password or right after a renewal.
  package func decide(
    sendFailure error: MatrixClientError, attempt: Int, rateLimitWaited: Duration, canRenewToken: Bool
  ) -> MatrixRetryDecision {
    switch error {
    case .network(let reason):
      return attempt < sendAttempts
        ? .wait(backoff(attempt: attempt))
        : .giveUp(.retryable(reason: "homeserver unreachable: \(reason)", after: nil))
    case .invalidResponse(let reason):
      return attempt < sendAttempts
        ? .wait(backoff(attempt: attempt)) : .giveUp(.retryable(reason: "unexpected answer: \(reason)", after: nil))
    case .api(let api):
      if api.isRateLimited {
        let wait = api.retryAfter ?? defaultRateLimitWait
        if rateLimitWaited + wait <= maximumRateLimitWait { return .wait(wait) }
        return .giveUp(.retryable(reason: "rate limited (\(api.description))", after: wait))
      }
      if api.isUnknownToken {
        return canRenewToken
          ? .renewToken
          : .giveUp(.retryable(reason: "access token rejected (\(api.description))", after: .seconds(300)))
      }
      if api.isServerError {
        return attempt < sendAttempts
          ? .wait(backoff(attempt: attempt)) : .giveUp(.retryable(reason: api.description, after: nil))
      }
      // M_FORBIDDEN (not in the room, no power to post), M_NOT_FOUND, M_TOO_LARGE, M_BAD_JSON…: resending the same
      // message to the same room cannot succeed.
      return .giveUp(.permanent(reason: api.description))
    }
  }

  /// For the sync loop, which never gives up on a temporary failure; `attempt` counts consecutive failures.
  package func decide(syncFailure error: MatrixClientError, attempt: Int, canRenewToken: Bool) -> MatrixRetryDecision {
    switch error {
    case .network, .invalidResponse:
      return .wait(backoff(attempt: attempt))
    case .api(let api):
      if api.isRateLimited { return .wait(api.retryAfter ?? defaultRateLimitWait) }
      if api.isUnknownToken {
        return canRenewToken ? .renewToken : .giveUp(.permanent(reason: "access token rejected (\(api.description))"))
      }
      // 5xx, and 4xx other than the above (a proxy in trouble): keep trying, slower and slower.
      return .wait(backoff(attempt: attempt))
    }
  }
}
