import Foundation
import Synchronization

/// A clock tests move by hand, so quiet hours, digests, retries and confirmations need no sleeping.
package final class TestClock: Sendable {
  private let current: Mutex<Date>

  /// 2025-01-06 10:10:00 UTC (a Monday) unless told otherwise.
  package init(_ start: Date = Date(timeIntervalSince1970: 1_736_158_200)) {
    current = Mutex(start)
  }

  package func now() -> Date { current.withLock { $0 } }
  package func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
  package func set(_ date: Date) { current.withLock { $0 = date } }

  /// Moves to the next moment with this UTC wall-clock time.
  package func advance(toNext hour: Int, _ minute: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let next = calendar.nextDate(
      after: now(), matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)!
    set(next)
  }
}
