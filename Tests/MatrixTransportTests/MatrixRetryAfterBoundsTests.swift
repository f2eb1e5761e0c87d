import ForumModel
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

/// A homeserver's wait (`retry_after_ms` in the error body, `Retry-After` in the header) is a number from outside:
/// whatever it says, the wait is finite, between zero and a day, and reading it cannot stop the process (issue 43:
/// `retry_after_ms: 1e20` trapped in `Int64(…)`).
@Suite("Matrix retry-after bounds")
struct MatrixRetryAfterBoundsTests {
  static let day = Duration.seconds(86_400)

  static func body(_ retryAfter: String) -> [UInt8] {
    Array(#"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":\#(retryAfter)}"#.utf8)
  }

  @Test(
    "a huge, negative or odd retry_after_ms is clamped to 0…a day, and the errcode beside it is still read",
    arguments: [
      ("1e20", day), ("1e308", day), ("1e400", nil), ("99999999999999999999", day), ("9223372036854775807", day),
      ("-5", .zero), ("-1e300", .zero), ("0", .zero), ("86400001", day), ("1500", .milliseconds(1500)),
      ("2.5", .milliseconds(3)), (#""soon""#, nil), ("null", nil), ("{}", nil), ("[1]", nil),
    ] as [(String, Duration?)])
  func bodyWait(value: String, expected: Duration?) {
    let error = MatrixAPIError.parse(status: 429, body: Self.body(value), retryAfterHeader: nil)
    #expect(error.errcode == "M_LIMIT_EXCEEDED")
    #expect(error.isRateLimited)
    if let expected {
      #expect(error.retryAfter == expected)
    } else if let wait = error.retryAfter {
      // A number JSON cannot hold (1e400) may be read as the longest wait or as none; never more than a day.
      #expect(wait >= .zero && wait <= Self.day)
    }
  }

  @Test(
    "a Retry-After that is infinite, NaN, negative, enormous or a far date gives at most a day",
    arguments: [
      ("inf", day), ("Infinity", day), ("nan", nil), ("-5", nil), ("99999999999999999999", day), ("1e400", day),
      ("86401", day), ("120", .seconds(120)), ("Fri, 31 Dec 9999 23:59:59 GMT", day),
      ("Thu, 01 Jan 1970 00:00:00 GMT", .zero), ("soon", nil),
    ] as [(String, Duration?)])
  func headerWait(value: String, expected: Duration?) {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(MatrixAPIError.parseRetryAfter(value, now: now) == expected)
    let error = MatrixAPIError.parse(status: 429, body: Array("{}".utf8), retryAfterHeader: value)
    #expect((error.retryAfter ?? .zero) <= Self.day)
  }

  @Test("the longer of body and header is taken, and neither gets past a day")
  func longerOfBoth() {
    let error = MatrixAPIError.parse(status: 429, body: Self.body("1e20"), retryAfterHeader: "inf")
    #expect(error.retryAfter == Self.day)
    let shorter = MatrixAPIError.parse(status: 429, body: Self.body("2000"), retryAfterHeader: "1")
    #expect(shorter.retryAfter == .seconds(2))
  }

  @Test("the retry rules hand back a day at most: the send gives the row back, the sync loop waits")
  func policyWithHugeWait() {
    let policy = MatrixRetryPolicy()
    let error = MatrixClientError.api(MatrixAPIError.parse(status: 429, body: Self.body("1e20"), retryAfterHeader: nil))
    #expect(
      policy.decide(sendFailure: error, attempt: 1, rateLimitWaited: .zero, canRenewToken: false)
        == .giveUp(.retryable(reason: "rate limited (M_LIMIT_EXCEEDED: Too Many Requests)", after: Self.day)))
    #expect(policy.decide(syncFailure: error, attempt: 1, canRenewToken: false) == .wait(Self.day))
  }
}
