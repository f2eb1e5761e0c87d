import AwfulBotApp
import AwfulBotTestKit
import BotStore
import ChatBridge
import IRCTransport
import MatrixTransport
import Testing

@Suite("exit status when the bot cannot start")
struct StartupFailureTests {
  @Test("refused credentials and bad config are EX_CONFIG (no restart); an unreachable service is EX_TEMPFAIL")
  func exitCodes() {
    let refused: [MatrixTransportError] = [
      .tokenRejected(userID: "@b:x", detail: "M_UNKNOWN_TOKEN"), .loginFailed(userID: "@b:x", detail: "M_FORBIDDEN"),
      .wrongAccount(configured: "@b:x", actual: "@c:x"), .invalidConfiguration(["homeserver: missing"]),
    ]
    for error in refused { #expect(StartupFailure.exitCode(for: error) == 78, "\(error)") }
    #expect(StartupFailure.exitCode(for: ConfigurationError(problems: [])) == 78)
    let down: [MatrixTransportError] = [
      .homeserverUnreachable(homeserver: "https://m", reason: "refused"),
      .notAMatrixHomeserver(homeserver: "https://m", reason: "404"),
    ]
    for error in down { #expect(StartupFailure.exitCode(for: error) == 75, "\(error)") }
    let sasl: [IRCTransportError] = [
      .saslRefused(account: "bot", mechanism: .plain, settingsPath: "transports[1]"),
      .saslUnavailable(account: "bot", mechanism: .plain, host: "irc.example", settingsPath: nil),
    ]
    for error in sasl { #expect(StartupFailure.exitCode(for: error) == 78, "\(error)") }
    #expect(StartupFailure.exitCode(for: CancellationError()) == nil)
    // A full disk may be cleared (logs rotated): start again after the unit's delay.
    #expect(StartupFailure.exitCode(for: BotStoreError.diskFullAtOpen(path: "/d/awfulbot.sqlite", freeBytes: 0)) == 75)
  }
}
