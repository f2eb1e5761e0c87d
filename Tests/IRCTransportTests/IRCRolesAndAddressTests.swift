import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import Synchronization
import Testing

@testable import IRCTransport

/// Roles from channel status, addressing by the current nick, the CTCP limiter and the SASL stop sentence, fed
/// with server lines directly (no network): what the transport hands the engine for what the server says.
@Suite("IRC roles, addressing, CTCP limits, SASL errors")
struct IRCRolesAndAddressTests {
  /// An unconnected client that records what it emits; lines go in through `receive`.
  final class Feed: Sendable {
    final class Recorder: Sendable {
      let messages = Mutex<[IncomingMessage]>([])
      let memberships = Mutex<[MembershipChange]>([])
    }
    let client: IRCClient
    private let recorder = Recorder()

    init(_ configure: (inout IRCTransportConfiguration) -> Void = { _ in }) throws {
      var configuration = IRCTransportConfiguration(host: "irc.example", tls: false, nick: "awfulbot")
      configuration.channels = [.init(name: "#goons")]
      configure(&configuration)
      let recorder = self.recorder
      client = try IRCClient(configuration: configuration, logger: Logger.quiet()) { event in
        if case .message(let message) = event { recorder.messages.withLock { $0.append(message) } }
        if case .membership(let change) = event { recorder.memberships.withLock { $0.append(change) } }
      }
    }

    func lines(_ lines: String...) async {
      for line in lines { await client.receive(line) }
    }

    /// Registers as `nick` and joins #goons, with the server's PREFIX when given.
    func joined(as nick: String = "awfulbot", prefix: String? = nil) async {
      if let prefix { await lines(":irc.example 005 \(nick) \(prefix) :are supported by this server") }
      await lines(":irc.example 001 \(nick) :Welcome", ":\(nick)!bot@host JOIN #goons")
    }

    /// What the transport makes of `text` said by `nick`, in #goons or (target = the bot) in a query.
    func said(_ text: String, by nick: String, to target: String = "#goons", account: String? = nil) async
      -> IncomingMessage?
    {
      let before = recorder.messages.withLock { $0.count }
      let tags = account.map { "@account=\($0) " } ?? ""
      await client.receive(
        "\(tags):\(nick)!\(nick.lowercased())@\(nick.lowercased()).example PRIVMSG \(target) :\(text)")
      return recorder.messages.withLock { $0.count > before ? $0.last : nil }
    }

    func role(of nick: String) async -> Role? { await said("!status", by: nick)?.transportRole }

    var memberships: [MembershipChange] { recorder.memberships.withLock { $0 } }
  }

  // MARK: Roles

  @Test("NAMES on join: operators, half-ops and q/a are admins, voiced users members, others nothing")
  func rolesFromNames() async throws {
    let feed = try Feed()
    await feed.joined(prefix: "PREFIX=(qaohv)~&@%+")
    await feed.lines(":irc.example 353 awfulbot = #goons :awfulbot ~Owner &Prot @Op %Half +Voice Plain @+Both")
    #expect(await feed.role(of: "Owner") == .admin)
    #expect(await feed.role(of: "Prot") == .admin)
    #expect(await feed.role(of: "op") == .admin, "nicks compare case-insensitively")
    #expect(await feed.role(of: "Half") == .admin)
    #expect(await feed.role(of: "Voice") == .member)
    #expect(await feed.role(of: "Both") == .admin, "the highest mode wins (multi-prefix)")
    #expect(await feed.role(of: "Plain") == nil)
    #expect(await feed.role(of: "Stranger") == nil)
  }

  @Test("MODE changes the role at once: +o, -o, +v, -v, +h, and several modes in one line")
  func rolesFollowModes() async throws {
    let feed = try Feed()
    await feed.joined(prefix: "PREFIX=(ohv)@%+")
    await feed.lines(":irc.example 353 awfulbot = #goons :awfulbot @Op Plain", ":Late!l@l.example JOIN #goons")
    #expect(await feed.role(of: "Plain") == nil)
    await feed.lines(":Op!op@op.example MODE #goons +v Plain")
    #expect(await feed.role(of: "Plain") == .member)
    await feed.lines(":Op!op@op.example MODE #goons +o Plain")
    #expect(await feed.role(of: "Plain") == .admin)
    await feed.lines(":Op!op@op.example MODE #goons -o Plain")
    #expect(await feed.role(of: "Plain") == .member, "still voiced")
    await feed.lines(":Op!op@op.example MODE #goons -v+h Plain Plain")
    #expect(await feed.role(of: "Plain") == .admin)
    // List and key modes take parameters too; the member modes after them still land on the right nick.
    await feed.lines(":Op!op@op.example MODE #goons +bkv-h *!*@spam.example secret Late Plain")
    #expect(await feed.role(of: "Late") == .member)
    #expect(await feed.role(of: "Plain") == nil)
    await feed.lines(":Op!op@op.example MODE #goons -o Op")
    #expect(await feed.role(of: "Op") == nil, "a deopped operator is nobody special")
    // A nick change keeps the modes; a new NAMES reply replaces them.
    await feed.lines(":Late!l@l.example NICK Later")
    #expect(await feed.role(of: "Later") == .member)
    await feed.lines(":irc.example 353 awfulbot = #goons :awfulbot Later")
    #expect(await feed.role(of: "Later") == nil)
  }

  @Test("channelRoles replaces the default: operators members, voice nothing; {} turns channel roles off")
  func configuredChannelRoles() async throws {
    let feed = try Feed { $0.channelRoles = ["o": .member] }
    await feed.joined()
    await feed.lines(":irc.example 353 awfulbot = #goons :awfulbot @Op +Voice")
    #expect(await feed.role(of: "Op") == .member)
    #expect(await feed.role(of: "Voice") == nil)

    let off = try Feed { $0.channelRoles = [:] }
    await off.joined()
    await off.lines(":irc.example 353 awfulbot = #goons :awfulbot @Op")
    #expect(await off.role(of: "Op") == nil)
  }

  @Test("a listed account keeps its role and channel status can raise it; a query carries no channel role")
  func listedAndQuery() async throws {
    let feed = try Feed { $0.members = ["friend"] }
    await feed.joined()
    await feed.lines(":irc.example 353 awfulbot = #goons :awfulbot @Op @Friend")
    #expect(await feed.said("!status", by: "Friend", account: "friend")?.transportRole == .admin)
    #expect(await feed.said("!status", by: "Other", account: "friend")?.transportRole == .member)
    let query = await feed.said("status", by: "Op", to: "awfulbot")
    #expect(query?.isDirect == true && query?.room == "Op")
    #expect(query?.transportRole == nil, "an operator of #goons is nobody special in a query")
  }

  @Test("channelRoles is checked: mode letters and role names")
  func channelRolesValidation() throws {
    var configuration = IRCTransportConfiguration(host: "irc.example", nick: "awfulbot")
    try configuration.validate()
    #expect(configuration.channelRoles == ["q": .admin, "a": .admin, "o": .admin, "h": .admin, "v": .member])
    // Roles are typed once read; a mode that is not a letter is still refused.
    configuration.channelRoles = ["@": .admin, "v": .member]
    #expect(throws: IRCConfigurationError.self) { try configuration.validate() }
    let json = #"{"server":"irc.example:6697","nick":"awfulbot","channelRoles":{"o":"admin","v":"viewer"}}"#
    let decoded = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
    #expect(decoded.channelRoles == ["o": .admin, "v": .viewer])
    // Any case, as everywhere a role is named; a name that is no role is refused where it is read.
    let anyCase = #"{"server":"irc.example:6697","nick":"awfulbot","channelRoles":{"o":"Admin","v":"MEMBER"}}"#
    let typed = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(anyCase.utf8))
    #expect(typed.channelRoles == ["o": .admin, "v": .member])
    let boss = #"{"server":"irc.example:6697","nick":"awfulbot","channelRoles":{"v":"boss"}}"#
    #expect(throws: IRCConfigurationError.self) {
      try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(boss.utf8))
    }
  }

  // MARK: Addressing

  @Test(
    "addressed by the current nick with ':', ',' or a space; anything else is not",
    arguments: [
      ("awfulbot_: status", "status", true), ("AWFULBOT_, help", "help", true), ("awfulbot_ help me", "help me", true),
      ("awfulbot_:status", "status", true), ("awfulbot_:   status", "status", true),
      ("awfulbot_", "awfulbot_", false), ("awfulbot_:", "awfulbot_:", false),
      ("awfulbot_s help", "awfulbot_s help", false),
      ("awfulbot: help", "awfulbot: help", false), ("hi awfulbot_: help", "hi awfulbot_: help", false),
      ("!help", "!help", false),
    ])
  func address(_ line: String, _ text: String, _ addressed: Bool) {
    let result = IRCClient.address(line, nick: "awfulbot_")
    #expect(result.text == text)
    #expect(result.addressed == addressed)
  }

  @Test("the nick compares with RFC 1459 case mapping ({ is [ in upper case)")
  func addressCaseMapping() {
    let result = IRCClient.address("awful{bot}: help", nick: "Awful[Bot]")
    #expect(result.text == "help" && result.addressed)
  }

  /// What the engine's parser then makes of the text handed on (addressed: a command without the prefix) is
  /// BotCoreTests' `CommandParserTests`.
  @Test("after a nick clash the bot answers to the nick it got: the rest is handed on as text addressed to it")
  func addressedAfterNickClash() async throws {
    let feed = try Feed { $0.alternateNicks = ["awfulbot_"] }
    await feed.joined(as: "awfulbot_")
    for line in ["awfulbot_: status", "awfulbot_, status", "awfulbot_ status"] {
      let message = try #require(await feed.said(line, by: "Someone"))
      #expect(message.addressed && message.text == "status", "\(line)")
      #expect(!message.isDirect, "\(line)")
    }
    let other = try #require(await feed.said("awfulbot: status", by: "Someone"))
    #expect(!other.addressed, "awfulbot is someone else now")
    #expect(other.text == "awfulbot: status", "text not addressed to the bot is handed on as it was said")
    let chat = try #require(await feed.said("status is fine", by: "Someone"))
    #expect(!chat.addressed && !chat.isDirect && chat.text == "status is fine")
    // After a NICK change the new nick is the one that counts.
    await feed.lines(":awfulbot_!bot@host NICK awfulbot")
    #expect(await feed.said("awfulbot: status", by: "Someone")?.addressed == true)
    #expect(await feed.said("awfulbot_: status", by: "Someone")?.addressed == false)
  }

  @Test("CTCP requests, ACTION included, never reach the command parser")
  func ctcpNotEmitted() async throws {
    let feed = try Feed()
    await feed.joined()
    for request in [
      "\u{01}ACTION waves\u{01}", "\u{01}VERSION\u{01}", "\u{01}PING 123\u{01}", "\u{01}DCC SEND x\u{01}",
    ] {
      #expect(await feed.said(request, by: "Someone") == nil, "\(request)")
      #expect(await feed.said(request, by: "Someone", to: "awfulbot") == nil, "\(request)")
    }
  }

  // MARK: CTCP limits

  @Test("CTCP limiter: a burst per sender, then one per interval; a shared bucket caps everyone together")
  func ctcpLimiter() {
    var limiter = IRCCTCPLimiter(
      perSourceBurst: 2, perSourceInterval: .seconds(30), globalBurst: 3, globalInterval: .seconds(10))
    let start = ContinuousClock.now
    func allow(_ source: String, after seconds: Int = 0) -> Bool {
      limiter.allow(source, now: start + .seconds(seconds))
    }
    #expect(allow("a.example"))
    #expect(allow("a.example"))
    #expect(!allow("a.example"), "the sender's burst is spent")
    #expect(allow("b.example"), "another sender still has its own")
    #expect(!allow("c.example"), "but the shared bucket (3) is empty")
    #expect(!allow("c.example", after: 5))
    #expect(allow("c.example", after: 10), "one shared token back after 10 s")
    #expect(!allow("a.example", after: 20), "a's own bucket refills only after 30 s")
    #expect(allow("a.example", after: 31))
    // One request a second from ever new senders: answered at the shared rate, no faster.
    var answered = 0
    for second in 100..<400 where allow("d\(second).example", after: second) { answered += 1 }
    #expect(answered <= 3 + 30 && answered >= 30, "\(answered) answers in 300 s")
    // The defaults: one of each request at once, then the limit.
    var defaults = IRCCTCPLimiter()
    #expect((0..<6).filter { _ in defaults.allow("e.example", now: start) }.count == 4)
  }

  @Test("CTCP limiter: many senders do not grow its memory beyond the cap")
  func ctcpLimiterMemory() {
    var limiter = IRCCTCPLimiter(globalBurst: 1_000_000, globalInterval: .zero, maximumSources: 10)
    let start = ContinuousClock.now
    for index in 0..<500 { _ = limiter.allow("host\(index)", now: start + .milliseconds(index)) }
    #expect(limiter.sources.count <= 10)
  }

  @Test("CTCP PING arguments are cut on a character boundary")
  func pingArgument() {
    #expect(IRCClient.prefix("1234", bytes: 128) == "1234")
    let long = String(repeating: "é", count: 100)
    let cut = IRCClient.prefix(long, bytes: 128)
    #expect(cut.utf8.count == 128 && cut == String(repeating: "é", count: 64))
    #expect(IRCClient.ctcpTime(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
  }

  // MARK: SASL

  @Test("SASL stop sentence: account and config key, never the password; other failures are not fatal")
  func saslSentence() throws {
    var configuration = IRCTransportConfiguration(host: "irc.example", nick: "awfulbot")
    configuration.sasl = .init(mechanism: .plain, account: "botaccount", password: "hunter2")
    configuration.settingsPath = "transports[3]"
    let refused = try #require(
      IRCTransportError(startupFailure: .saslFailed(numeric: 904, message: "failed"), configuration: configuration))
    #expect(refused.description == "SASL login for account botaccount was refused: check transports[3].sasl.password")
    let missing = try #require(
      IRCTransportError(
        startupFailure: .saslUnavailable(mechanism: "PLAIN", offered: nil), configuration: configuration))
    #expect(missing.description.hasPrefix("SASL login for account botaccount is not possible: irc.example offers no"))
    #expect(!refused.description.contains("hunter2") && !missing.description.contains("hunter2"))
    #expect(IRCTransportError(startupFailure: .refused, configuration: configuration) == nil)
    configuration.sasl = nil
    #expect(
      IRCTransportError(startupFailure: .saslFailed(numeric: 904, message: ""), configuration: configuration) == nil)
  }
}
