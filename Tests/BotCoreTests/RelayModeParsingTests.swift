import BotCore
import Testing

/// The one grammar of a room's mode, which the `mode` command and the config's `rooms[].mode` both read.
@Suite("relay mode grammar")
struct RelayModeParsingTests {
  @Test("every form, any case; a bare digest is hourly")
  func forms() throws {
    #expect(try RelayMode.parse("each").get() == .each)
    #expect(try RelayMode.parse("Summary").get() == .summary(threshold: RelayMode.defaultSummaryThreshold))
    #expect(try RelayMode.parse("summary 12").get() == .summary(threshold: 12))
    #expect(try RelayMode.parse("digest").get() == .digest(.hourly))
    #expect(try RelayMode.parse("digest hourly").get() == .digest(.hourly))
    let eight = try #require(TimeOfDay(hour: 8, minute: 30))
    #expect(try RelayMode.parse(["digest", "DAILY", "08:30"]).get() == .digest(.daily(eight)))
  }

  @Test("what is refused, and the sentence that says why")
  func refusals() {
    #expect(RelayMode.parse("summary -5") == .failure(.threshold))
    #expect(RelayMode.parse("summary 1001") == .failure(.threshold))
    #expect(RelayMode.parse("digest daily 25:00") == .failure(.time))
    #expect(RelayMode.parse("sometimes") == .failure(.unknown))
    #expect(RelayMode.parse("") == .failure(.unknown))
    #expect(RelayMode.parse("each post") == .failure(.unknown))
    #expect(RelayMode.ParseError.threshold.description == "K is a number of posts from 1 to 1000.")
  }
}
