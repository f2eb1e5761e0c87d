import AwfulBotTestKit
import ChatBridge
import Foundation
import Synchronization

/// A clock tests move by hand, so quiet hours, digests and retries need no sleeping.
final class EngineTestClock: Sendable {
  private let current: Mutex<Date>

  /// 2025-01-06 10:10:00 UTC (a Monday) unless told otherwise.
  init(_ start: Date = Date(timeIntervalSince1970: 1_736_158_200)) {
    current = Mutex(start)
  }

  func now() -> Date { current.withLock { $0 } }
  func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
  func set(_ date: Date) { current.withLock { $0 = date } }

  /// Moves to the next moment with this UTC wall-clock time.
  func advance(toNext hour: Int, _ minute: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let next = calendar.nextDate(
      after: now(), matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)!
    set(next)
  }
}
