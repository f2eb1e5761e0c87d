import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// docs/forum-protocol.md#dates and EXPECTED.md "testParsePostDate": every format, read in America/Chicago.
struct ForumDatesTests {
  let dates = ForumDates()

  func epoch(_ raw: String) -> Int? { dates.date(from: raw).map { Int($0.timeIntervalSince1970) } }

  @Test(arguments: [
    // Thread lists: 24- and 12-hour, space-padded days.
    ("22:29 Jan  2, 2013", 1_357_187_340),
    ("04:25 Jan 12, 2013", 1_357_986_300),
    ("11:14 Apr 28, 2008", 1_209_399_240),
    ("21:00 Apr  7, 2014", 1_396_922_400),
    ("4:25 AM Jan 12, 2013", 1_357_986_300),
    ("10:29 PM Jan  2, 2013", 1_357_187_340),
    // Post dates.
    ("Sep 20, 2012 11:16", 1_348_157_760),
    ("Dec 31, 2013 21:31", 1_388_547_060),
    ("Jan  7, 2013 19:21", 1_357_608_060),
    ("Jan 18, 2013  7:28 PM", 1_358_558_880),
    ("Jan 18, 2013 12:05 AM", 1_358_489_100),
    ("Jan 18, 2013 12:05 PM", 1_358_532_300),
    // Registration and announcement dates (midnight).
    ("Dec 29, 2006", 1_167_372_000),
    ("Sep 05, 2010", 1_283_662_800),
    ("Apr 20, 2007", 1_177_045_200),
    // PM folders, with "at" and a full month name.
    ("Nov  8, 2012 at 21:30", 1_352_431_800),
    ("November 8, 2012 at 9:30 PM", 1_352_431_800),
    // Leper's Colony.
    ("11/10/13 10:10am", 1_384_099_800),
    // Surrounding whitespace and newlines as scraped from a cell.
    ("\n\t\tSep 20, 2012 11:16\n\t", 1_348_157_760),
  ])
  func formats(raw: String, expected: Int) {
    #expect(epoch(raw) == expected)
  }

  @Test func timeInTheDaylightSavingGapStillParses() throws {
    // 2:15 AM did not exist in Chicago on Mar 14, 2010; it reads as standard time (08:15 UTC).
    #expect(epoch("Mar 14, 2010 2:15 AM") == 1_268_554_500)
    #expect(epoch("Apr 4, 2010 2:15 AM") != nil)
    #expect(epoch("Apr 4, 2010 2:15 AM") == 1_270_365_300)
  }

  @Test func repeatedHourReadsAsDaylightTime() {
    // 1:30 AM happened twice on Nov 7, 2010; the first (CDT, 06:30 UTC) is taken.
    #expect(epoch("Nov 7, 2010 1:30 AM") == 1_289_111_400)
  }

  @Test func otherTimeZones() throws {
    let utc = ForumDates(timeZone: try #require(TimeZone(identifier: "UTC")))
    #expect(utc.date(from: "Jan 1, 1970 00:00")?.timeIntervalSince1970 == 0)
    #expect(utc.date(from: "Feb 29, 2000 12:00")?.timeIntervalSince1970 == 951_825_600)
  }

  @Test(arguments: ["", "Pages", "Jan 2013", "22:29", "Foo 2, 2013", "Jan 2, 2013 25:00", "13:00 PM Jan 2, 2013", "-"])
  func notDates(raw: String) {
    #expect(dates.date(from: raw) == nil)
  }
}
