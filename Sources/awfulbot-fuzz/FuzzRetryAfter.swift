import ForumModel
import Foundation
import MatrixModel

@testable import ForumsClient

/// The `retryafter` target: a `Retry-After` header value, as a wall in front of the forum or a homeserver sends it,
/// through every reader of it. Whatever the value (`inf`, `nan`, `1e400`, twenty nines, a date in the year 9999), the
/// wait is finite and between zero and a day, and reading it cannot trap.
enum FuzzRetryAfter {
  static let day = Duration.seconds(RetryAfterHeader.maximumSeconds)
  /// Now, at the epoch, and at the far ends of what a `Date` holds: a date's distance from each stays a bounded wait.
  static let nows = [
    Date(timeIntervalSince1970: 1_800_000_000), Date(timeIntervalSince1970: 0), Date.distantPast, Date.distantFuture,
  ]

  static func run(_ bytes: UnsafeRawBufferPointer) {
    let value = String(decoding: bytes, as: UTF8.self)
    for now in nows {
      if let seconds = RetryAfterHeader.seconds(value, now: now) {
        guard seconds.isFinite, seconds >= 0, seconds <= RetryAfterHeader.maximumSeconds else {
          fatalError("Retry-After \(Array(bytes)) read as \(seconds) s")
        }
      }
      if let seconds = WallDetector.retryAfterSeconds(value, now: now), !(0...86_400).contains(seconds) {
        fatalError("Retry-After \(Array(bytes)) read by the forum client as \(seconds) s")
      }
      if let wait = MatrixAPIError.parseRetryAfter(value, now: now), wait < .zero || wait > day {
        fatalError("Retry-After \(Array(bytes)) read by the Matrix client as \(wait)")
      }
    }
    let error = MatrixAPIError.parse(status: 429, body: [], retryAfterHeader: value)
    if let wait = error.retryAfter, wait < .zero || wait > day {
      fatalError("Retry-After \(Array(bytes)) in a 429 read as \(wait)")
    }
  }
}
