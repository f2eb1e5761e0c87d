import AwfulBotTestKit
import ChatBridge
import MatrixModel
import Testing

@testable import MatrixTransport

@Suite("Matrix retry rules")
struct MatrixRetryPolicyTests {
  let policy = MatrixRetryPolicy(
    maximumRateLimitWait: .seconds(10), sendAttempts: 3, backoffBase: .milliseconds(500), maximumBackoff: .seconds(4))

  func rateLimited(after: Duration?) -> MatrixClientError {
    .api(MatrixAPIError(status: 429, errcode: "M_LIMIT_EXCEEDED", retryAfter: after))
  }

  @Test("429 waits as long as the homeserver asks, however often it happens")
  func rateLimitWaits() {
    for attempt in 1...20 {
      let decision = policy.decide(
        sendFailure: rateLimited(after: .milliseconds(300)), attempt: attempt, rateLimitWaited: .zero,
        canRenewToken: false)
      #expect(decision == .wait(.milliseconds(300)))
    }
    #expect(
      policy.decide(sendFailure: rateLimited(after: nil), attempt: 1, rateLimitWaited: .zero, canRenewToken: false)
        == .wait(.seconds(1)))
  }

  @Test("past the rate-limit budget the row goes back to the dispatcher with the wait")
  func rateLimitBudget() {
    let decision = policy.decide(
      sendFailure: rateLimited(after: .seconds(2)), attempt: 9, rateLimitWaited: .seconds(9), canRenewToken: false)
    #expect(decision == .giveUp(.retryable(reason: "rate limited (M_LIMIT_EXCEEDED)", after: .seconds(2))))
  }

  @Test("5xx and network errors back off exponentially, then become retryable")
  func serverErrors() {
    let error = MatrixClientError.api(MatrixAPIError(status: 502))
    #expect(
      policy.decide(sendFailure: error, attempt: 1, rateLimitWaited: .zero, canRenewToken: false)
        == .wait(.milliseconds(500)))
    #expect(
      policy.decide(sendFailure: error, attempt: 2, rateLimitWaited: .zero, canRenewToken: false) == .wait(.seconds(1)))
    #expect(
      policy.decide(sendFailure: error, attempt: 3, rateLimitWaited: .zero, canRenewToken: false)
        == .giveUp(.retryable(reason: "HTTP 502", after: nil)))
    let network = MatrixClientError.network("connection refused")
    #expect(
      policy.decide(sendFailure: network, attempt: 1, rateLimitWaited: .zero, canRenewToken: false)
        == .wait(.milliseconds(500)))
    #expect(policy.backoff(attempt: 10) == .seconds(4), "capped")
  }

  @Test("M_FORBIDDEN and other client errors are permanent for that message")
  func forbidden() {
    let error = MatrixClientError.api(MatrixAPIError(status: 403, errcode: "M_FORBIDDEN", message: "not in room"))
    #expect(
      policy.decide(sendFailure: error, attempt: 1, rateLimitWaited: .zero, canRenewToken: true)
        == .giveUp(.permanent(reason: "M_FORBIDDEN: not in room")))
  }

  @Test("an unknown token means a new login when possible, else the transport stops")
  func unknownToken() {
    let error = MatrixClientError.api(MatrixAPIError(status: 401, errcode: "M_UNKNOWN_TOKEN"))
    #expect(policy.decide(sendFailure: error, attempt: 1, rateLimitWaited: .zero, canRenewToken: true) == .renewToken)
    guard
      case .giveUp(.retryable) = policy.decide(
        sendFailure: error, attempt: 1, rateLimitWaited: .zero, canRenewToken: false)
    else {
      Issue.record("expected a retryable give-up")
      return
    }
    #expect(policy.decide(syncFailure: error, attempt: 1, canRenewToken: true) == .renewToken)
    guard case .giveUp = policy.decide(syncFailure: error, attempt: 1, canRenewToken: false) else {
      Issue.record("the sync loop must stop on a rejected token without a password")
      return
    }
  }

  @Test("the sync loop never gives up on temporary failures")
  func syncKeepsTrying() {
    let network = MatrixClientError.network("reset")
    #expect(policy.decide(syncFailure: network, attempt: 100, canRenewToken: false) == .wait(.seconds(4)))
    #expect(
      policy.decide(syncFailure: rateLimited(after: .milliseconds(700)), attempt: 3, canRenewToken: false)
        == .wait(.milliseconds(700)))
  }
}
