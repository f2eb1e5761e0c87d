import Foundation
import Testing

@testable import IRCTransport

/// The transport's options are config, input from outside too: a number no conversion could take is a problem named
/// by its key, not a trap when the connection starts (issue 43).
struct IRCConfigurationNumberTests {
  @Test("1e300 seconds, or a jitter of 1e20, is reported by key")
  func hugeSeconds() throws {
    let json = #"{"server": "irc.example:6697", "nick": "bot", "pingIntervalSeconds": 1e300, "reconnectJitter": 1e20}"#
    #expect {
      _ = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
    } throws: { error in
      let problems = (error as? IRCConfigurationError)?.problems ?? []
      return problems.contains("pingIntervalSeconds: expected a number from -1e15 to 1e15, got 1e+300")
        && problems.contains("reconnectJitter: expected a number from -1e15 to 1e15, got 1e+20")
    }
  }
}
