import ForumModel
import Foundation

/// Reads the forum's date strings in the forum's time zone (America/Chicago unless configured otherwise).
///
/// One hand-written tokenizer covers every format the forum prints (docs/forum-protocol.md#dates): thread-list times
/// (`22:29 Jan  2, 2013`, `4:25 AM Jan 12, 2013`), post dates (`Sep 20, 2012 11:16`, `Jan 18, 2013  7:28 PM`),
/// registration and announcement dates (`Dec 29, 2006`, `Sep 05, 2010`), PM folder dates (`Nov  8, 2012 at 21:30`,
/// full month names too) and Leper's Colony dates (`11/10/13 10:10am`). It is faster than `DateFormatter`, does not
/// depend on ICU's leniency, and reads times that fall in a daylight-saving gap (`Mar 14, 2010 2:15 AM`) with the
/// zone's standard offset, as the forum's own client does by parsing leniently.
package struct ForumDates: Sendable, Hashable {
  /// The forum servers' zone.
  package static let forumTimeZone = TimeZone(identifier: "America/Chicago")!

  package var timeZone: TimeZone

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    self.timeZone = timeZone
  }

  /// Parses any of the forum's date formats; nil when the text holds no complete date.
  package func date(from raw: String) -> Date? {
    guard let parts = ForumDateParts(raw) else { return nil }
    return date(from: parts)
  }

  /// The instant for wall-clock parts in `timeZone`. A time in a DST gap uses the standard offset; a time in the
  /// repeated hour uses the first (daylight) reading.
  func date(from parts: ForumDateParts) -> Date? {
    guard (1...12).contains(parts.month), (1...31).contains(parts.day), (0...23).contains(parts.hour),
      (0...59).contains(parts.minute)
    else { return nil }
    let days = Self.daysFromCivil(year: parts.year, month: parts.month, day: parts.day)
    let local = Double(days * 86_400 + parts.hour * 3_600 + parts.minute * 60)
    let first = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
    let second = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(first)))
    for offset in [second, first]
    where timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(offset))) == offset {
      return Date(timeIntervalSince1970: local - Double(offset))
    }
    // In the gap neither offset round-trips: read the wall time as standard time.
    let probe = Date(timeIntervalSince1970: local - Double(first))
    let standard = timeZone.secondsFromGMT(for: probe) - Int(timeZone.daylightSavingTimeOffset(for: probe))
    return Date(timeIntervalSince1970: local - Double(standard))
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// The wall-clock parts of a forum date string, before any time zone is applied.
struct ForumDateParts: Hashable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int

  /// The months' three-letter names, each packed into an integer as `month(_:_:_:)` packs the word's letters.
  private static let months: [UInt32] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  .map { name in name.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

  /// The month (1...12) whose name starts with these three lower-case letters.
  private static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
    let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    return months.firstIndex(of: key).map { $0 + 1 }
  }

  /// Tokenizes `raw` into words, numbers, `H:MM` times and `M/D/Y` dates, then assembles the parts. Words other
  /// than month names and AM/PM ("at") are ignored; a date needs a month and day and a year.
  init?(_ raw: String) {
    // Read in place: the text is already contiguous UTF-8 (dates are read for every post and thread row).
    var raw = raw
    guard let parts = raw.withUTF8({ Self.parse($0) }) else { return nil }
    self = parts
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ForumDateParts? {
    var month: Int?
    var day: Int?
    var year: Int?
    var hour: Int?
    var minute = 0
    var meridiem: Character?
    var numbers: [Int] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if Self.isDigit(byte) {
        let (first, digits) = Self.number(in: bytes, at: &i)
        if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
          // A time: H:MM, maybe followed directly by am/pm ("10:10am").
          i += 1
          let (minutes, minuteDigits) = Self.number(in: bytes, at: &i)
          guard minuteDigits > 0 else { return nil }
          hour = first
          minute = minutes
        } else if i < bytes.count, bytes[i] == UInt8(ascii: "/") {
          // A numeric date: MM/dd/yy or MM/dd/yyyy.
          var fields = [first]
          while i < bytes.count, bytes[i] == UInt8(ascii: "/") {
            i += 1
            let (value, count) = Self.number(in: bytes, at: &i)
            guard count > 0 else { return nil }
            fields.append(count <= 2 && fields.count == 2 ? value + 2000 : value)
          }
          guard fields.count == 3 else { return nil }
          month = fields[0]
          day = fields[1]
          year = fields[2]
        } else if digits == 4 {
          year = first
        } else {
          numbers.append(first)
        }
      } else if Self.isLetter(byte) {
        let start = i
        while i < bytes.count, Self.isLetter(bytes[i]) { i += 1 }
        // Letters here are ASCII, so lower-casing is `| 0x20` and bytes are characters.
        let word = UnsafeBufferPointer(rebasing: bytes[start..<i])
        let first = word[0] | 0x20
        if word.count <= 2, first == UInt8(ascii: "a"), word.count == 1 || word[1] | 0x20 == UInt8(ascii: "m") {
          meridiem = "a"
        } else if word.count <= 2, first == UInt8(ascii: "p"), word.count == 1 || word[1] | 0x20 == UInt8(ascii: "m") {
          meridiem = "p"
        } else if word.count >= 3, let value = Self.month(first, word[1] | 0x20, word[2] | 0x20) {
          month = value
        }
      } else {
        i += 1
      }
    }
    if day == nil, let first = numbers.first { day = first }
    guard let month, let day, let year else { return nil }
    return ForumDateParts(month: month, day: day, year: year, hour: hour, minute: minute, meridiem: meridiem)
  }

  private init?(month: Int, day: Int, year: Int, hour: Int?, minute: Int, meridiem: Character?) {
    // Day, month, hour and minute have their ranges checked later; a year has none, so an overlong one stops here.
    guard year < Self.saturated else { return nil }
    var hour24 = hour ?? 0
    if let meridiem, hour != nil {
      guard (1...12).contains(hour24) else { return nil }
      hour24 = hour24 % 12 + (meridiem == "p" ? 12 : 0)
    }
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour24
    self.minute = minute
  }

  init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  /// Reads one more decimal digit into `value`, which stops growing at `saturated`: a run of twenty digits (the
  /// fuzzer's first find) overflowed `Int` and trapped. No field accepts the saturated value (the year is checked
  /// when the parts are assembled), so such a number reads as no date rather than as a wrapped-around one.
  private static func appendDigit(_ byte: UInt8, to value: inout Int) {
    value = value < saturated ? value * 10 + Int(byte - 48) : saturated
  }

  /// Reads the run of digits at `i` (saturating, see `appendDigit`) and moves `i` past it: its value and how many
  /// digits it had (none when `i` is at no digit).
  private static func number(in bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) -> (value: Int, digits: Int) {
    var value = 0
    var digits = 0
    while i < bytes.count, isDigit(bytes[i]) {
      appendDigit(bytes[i], to: &value)
      digits += 1
      i += 1
    }
    return (value, digits)
  }

  private static let saturated = 1_000_000_000
  private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
}
