import ChatBridge
import MatrixModel

@testable import MatrixTransport

/// The `matrixerror` target: a homeserver's error body (`{"errcode": "M_LIMIT_EXCEEDED", "retry_after_ms": …}`, or
/// whatever a proxy in front of it answers) through the error reader and the retry rules. Whatever the body says,
/// reading it cannot trap, and the wait it asks for is finite and at most a day.
enum FuzzMatrixError {
  static let day = Duration.seconds(86_400)
  static let policy = MatrixRetryPolicy()

  static func run(_ bytes: UnsafeRawBufferPointer) {
    let body = Array(bytes)
    for status in [429, 401, 403, 502] {
      for header in [nil, "1", "inf"] as [String?] {
        let error = MatrixAPIError.parse(status: status, body: body, retryAfterHeader: header)
        _ = error.description
        _ = error.needsInteractiveAuth
        if let wait = error.retryAfter, wait < .zero || wait > day {
          fatalError("the error body \(body) asks for a wait of \(wait)")
        }
        let failure = MatrixClientError.api(error)
        _ = failure.description
        check(policy.decide(sendFailure: failure, attempt: 1, rateLimitWaited: .zero, canRenewToken: true), body)
        check(policy.decide(syncFailure: failure, attempt: 1, canRenewToken: true), body)
      }
    }
  }

  /// What the retry rules make of it waits at most a day, as the send or the sync loop would sleep.
  static func check(_ decision: MatrixRetryDecision, _ body: [UInt8]) {
    switch decision {
    case .wait(let wait) where wait < .zero || wait > day:
      fatalError("the error body \(body) makes the retry rules wait \(wait)")
    case .giveUp(.retryable(_, let after?)) where after < .zero || after > day:
      fatalError("the error body \(body) reschedules the send after \(after)")
    default:
      break
    }
  }
}
