import AwfulBotIRCTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import IRCTransport

/// The tests against the live network that leave the server running: the suites run side by side, each one's tests
/// in order (`.serialized` on each); each test has its own channels and nicks, and the server's limits are raised.
/// One after the other they took seven minutes.
@Suite(
  "IRC transport on InspIRCd + Atheme",
  .enabled(if: IRCTestEnvironment.available, "AWFULBOT_IRC_HOST is not set: run under scripts/with-ircd"),
  .timeLimit(.minutes(3)))
struct IRCLiveTests {}

/// The tests that restart or freeze InspIRCd, and flood control measured in real time: one at a time, in a
/// `swift test` of their own (`AWFULBOT_IRC_RESTART_TESTS=1`, which `scripts/test` sets after the other suites),
/// since every other suite on the network would lose its connection.
@Suite(
  "IRC: the server restarted or frozen", .serialized,
  .enabled(
    if: IRCTestEnvironment.restartsAllowed,
    "restarts the IRC server: run alone, with AWFULBOT_IRC_RESTART_TESTS=1 (scripts/test does)"),
  .timeLimit(.minutes(3)))
struct IRCServerRestartTests {}

extension IRCClient {
  func isJoined(_ channel: String) -> Bool { membership.channels[IRCCaseMapping.fold(channel)] != nil }

  /// The member modes (`o`, `v`, …) the bot has seen `nick` hold in `channel` (from NAMES and MODE).
  func modes(of nick: String, in channel: String) -> Set<Character> {
    membership.channels[IRCCaseMapping.fold(channel)]?.modes(of: nick) ?? []
  }
}

extension IRCTestEnvironment {
  /// InspIRCd's PID, from the file the scripts keep next to its config.
  func serverPID() throws -> pid_t {
    let directory = URL(fileURLWithPath: restartScript).deletingLastPathComponent()
    let text = try String(contentsOf: directory.appendingPathComponent("insp/inspircd.pid"), encoding: .utf8)
    guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw TestClientError.timedOut("a PID in inspircd.pid", nick: "-", seen: [text])
    }
    return pid
  }
}

/// The start most live tests share: the test network (or a skip), a fresh channel with a test client in it, and a
/// fresh nick for the bot.
func liveChannel(_ prefix: String) async throws -> (IRCTestEnvironment, String, String, IRCTestClient) {
  let environment = try IRCTestEnvironment.required
  let channel = IRCTestEnvironment.unique(prefix)
  let tester = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("t"), environment: environment)
  try await tester.join(channel)
  return (environment, channel, IRCTestEnvironment.unique("bot"), tester)
}

extension IRCTestClient {
  /// Waits until `nick` has joined the channel this client is in.
  func waitForJoin(of nick: String) async throws {
    try await waitFor("the bot's JOIN", timeout: .seconds(15)) { $0.command == "JOIN" && $0.nick == nick }
  }
}
