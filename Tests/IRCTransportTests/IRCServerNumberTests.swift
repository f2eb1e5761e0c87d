import Testing

@testable import IRCTransport

/// Numbers an IRC server announces are input from outside: none may overflow what the transport computes from them
/// (issue 43).
struct IRCServerNumberTests {
  @Test(
    "MONITOR's limit is never below zero, so the room left to watch (limit − watched) cannot overflow",
    arguments: [
      ("MONITOR=-9223372036854775808", 0), ("MONITOR=-1", 0), ("MONITOR=99999999999999999999", 100),
      ("MONITOR=5", 5), ("MONITOR", 100), ("MONITOR=", 100),
    ])
  func monitorLimit(token: String, expected: Int) {
    var support = IRCServerSupport()
    support.apply(tokens: [token])
    #expect(support.monitorLimit == expected)
    let (_, overflow) = (support.monitorLimit ?? 0).subtractingReportingOverflow(1_000)
    #expect(!overflow)
  }
}
