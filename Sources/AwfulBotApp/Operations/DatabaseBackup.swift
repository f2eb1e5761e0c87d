import BotStore
import Foundation

/// `awfulbot backup` and the scheduled backups of `run`: a consistent copy of the database (crypto state included:
/// the Matrix keys live in the same database) made with SQLite's online backup while the daemon writes, into a new
/// file of mode 0600 named with the time.
package enum DatabaseBackup {
  /// One backup made.
  package struct Outcome: Sendable, Hashable {
    package var path: String
    package var bytes: Int64
    package var seconds: Double
  }

  /// `awfulbot-20250102T030405Z.sqlite`: UTC, so names sort as times do and a clock change cannot reorder them.
  package static func fileName(at date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let stamp = String(
      format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0, parts.second ?? 0)
    return "\(prefix)\(stamp)\(suffix)"
  }

  /// The time in a name `fileName` made; nil for any other name (which retention then never removes).
  package static func date(fromFileName name: String) -> Date? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
    let stamp = Array(name.dropFirst(prefix.count).dropLast(suffix.count))
    guard stamp.count == 16, stamp[8] == "T", stamp[15] == "Z",
      stamp.enumerated().allSatisfy({ [8, 15].contains($0.offset) || $0.element.isASCII && $0.element.isNumber })
    else { return nil }
    func number(_ range: Range<Int>) -> Int { Int(String(stamp[range])) ?? 0 }
    let components = DateComponents(
      year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(9..<11), minute: number(11..<13),
      second: number(13..<15))
    // Round trip: a name with a 13th month or a 61st second is not one this made.
    guard let date = calendar.date(from: components), fileName(at: date) == name else { return nil }
    return date
  }

  /// Copies the database at `databasePath` to `destination`: a file that must not exist yet, or an existing
  /// directory, where the copy gets a `fileName` of `now`. `afterStep` runs between the copy's steps (see
  /// `OnlineBackup.copy`).
  package static func backup(
    databasePath: String, to destination: String, now: Date = Date(), pagesPerStep: Int32 = 1024,
    afterStep: (_ remaining: Int, _ total: Int) throws -> Void = { _, _ in }
  ) throws -> Outcome {
    var isDirectory: ObjCBool = false
    var target = destination
    if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
      target = URL(fileURLWithPath: destination).appendingPathComponent(fileName(at: now)).path
    }
    if FileManager.default.fileExists(atPath: target) {
      throw DatabaseBackupError.exists(path: target)
    }
    let started = ContinuousClock.now
    let result = try OnlineBackup.copy(
      databaseAt: databasePath, to: target, pagesPerStep: pagesPerStep, afterStep: afterStep)
    let elapsed = ContinuousClock.now - started
    return Outcome(
      path: target, bytes: result.bytes,
      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }

  static let prefix = "awfulbot-"
  static let suffix = ".sqlite"

  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
  }()
}
