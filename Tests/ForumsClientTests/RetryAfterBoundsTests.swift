import ForumModel
import Foundation
import NIOHTTP1
import Testing

@testable import ForumsClient

/// `Retry-After` in front of the forum is a number from outside: the wait read from it is finite and at most a day,
/// whatever the header says, and reading it cannot stop the process (issue 43: `Retry-After: inf` trapped in
/// `Int(…)`).
@Suite("Retry-After bounds")
struct RetryAfterBoundsTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "seconds or a date, clamped to 0…86400; NaN, negatives and words are no wait",
    arguments: [
      ("inf", 86_400), ("-inf", nil), ("nan", nil), ("-5", nil), ("99999999999999999999", 86_400),
      ("1e400", 86_400), ("1e20", 86_400), ("86400", 86_400), ("86401", 86_400), ("0", 0), ("1.2", 2),
      ("Fri, 31 Dec 9999 23:59:59 GMT", 86_400), ("Thu, 01 Jan 1970 00:00:00 GMT", 0), ("soon", nil), ("", nil),
    ] as [(String, Int?)])
  func bounded(value: String, expected: Int?) {
    #expect(WallDetector.retryAfterSeconds(value, now: Self.now) == expected)
    if let seconds = RetryAfterHeader.seconds(value, now: Self.now) {
      #expect(seconds.isFinite && (0...86_400).contains(seconds))
    }
  }

  @Test("an HTTP date is read by hand: the RFC's example exactly, anything else not at all, never a trap")
  func dates() {
    #expect(RetryAfterHeader.date("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    #expect(RetryAfterHeader.date("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    #expect(RetryAfterHeader.date("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
    #expect(RetryAfterHeader.date("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
    // What `scripts/fuzz retryafter` found: a combining mark stopped Foundation's DateFormatter.
    for odd in [
      "Tue, 1 \u{032E}ov 2023 2:13:30 GMT", "Tue, 14 Nov 2023 24:00:00 GMT", "Tue, 14 Foo 2023 22:13:30 GMT",
      "Tue, 32 Nov 2023 22:13:30 GMT", "Tue, 14 Nov 99999 22:13:30 GMT", "Tue, 14 Nov 2023 22:13:30 PST",
      "Tue, １4 Nov 2023 22:13:30 GMT", "Tuesday, 14-Nov-23 22:13:30 GMT",
    ] {
      #expect(RetryAfterHeader.date(odd) == nil, "\(odd)")
      #expect(RetryAfterHeader.seconds(odd, now: Self.now) == nil)
    }
  }

  @Test("a rate limit with an infinite Retry-After is a wall that asks for a day")
  func wallWithInfiniteWait() throws {
    let url = URL(string: "https://forums.somethingawful.com/bookmarkthreads.php")!
    var headers = HTTPHeaders()
    headers.add(name: "Retry-After", value: "inf")
    let response = ForumResponse(status: 429, headers: headers, body: Array("slow down".utf8), url: url)
    let wall = try #require(WallDetector.wall(in: response, now: Self.now))
    #expect(wall.kind == .rateLimit)
    #expect(wall.retryAfterSeconds == 86_400)
  }
}
