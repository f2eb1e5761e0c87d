import Testing

@testable import AwfulBotApp

/// `awfulbot demo --duration 1e300 --speed nan` runs (until stopped) instead of trapping in a conversion.
struct DemoOptionNumberTests {
  @Test("a duration of 1e300, inf or NaN and a speed of NaN or 0 convert without a trap")
  func hugeDemoOptions() {
    #expect(DemoOptions(duration: 1e300).shutdownAfter == .milliseconds(9_000_000_000_000_000_000))
    #expect(DemoOptions(duration: .infinity).shutdownAfter == .milliseconds(9_000_000_000_000_000_000))
    #expect(DemoOptions(duration: .nan).shutdownAfter == .zero)
    #expect(DemoOptions(duration: 12).shutdownAfter == .seconds(12))
    #expect(DemoOptions(speed: .nan).effectiveSpeed == 1)
    #expect(DemoOptions(speed: 0).effectiveSpeed == 0.1)
    #expect(Int((8 / DemoOptions(speed: .infinity).effectiveSpeed).rounded()) == 0)
  }
}
