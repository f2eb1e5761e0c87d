import AwfulBotIRCTestKit
import AwfulBotTestKit
import Foundation
import Testing

@testable import IRCTransport

/// The NickServ password goes only to the network's services (issue 43): SASL where the server offers it, else
/// IDENTIFY to `NickServ@<services server>` once a WHOIS showed NickServ is a service, or to the configured
/// `servicesServer`; never to a user who holds the nick NickServ. Against a scripted server, which can be the network
/// without services the test network is not.
@Suite("IRC: the NickServ password goes only to services", .timeLimit(.minutes(1)))
struct IRCNickServTests {
  static func configuration(port: Int) -> IRCTransportConfiguration {
    var configuration = IRCSASLStopTests.configuration(port: port, sasl: false)
    configuration.nickServPassword = "s3cret"
    return configuration
  }

  /// The lines the bot sent once it joined and, when `until` says so, sent what the test waits for.
  static func linesSent(
    caps: String? = "multi-prefix", saslAccepts: Bool = true, nickServ: IRCScriptedServer.NickServ = .absent,
    configure: (inout IRCTransportConfiguration) -> Void = { _ in },
    until: @escaping @Sendable ([String]) -> Bool = { lines in lines.contains { $0.hasPrefix("PRIVMSG") } }
  ) async throws -> [String] {
    let script = IRCScriptedServer.registering(
      nick: "awfulbot", caps: caps, saslAccepts: { _ in saslAccepts }, whoisNickServ: nickServ)
    return try await IRCScriptedServer.with(script) { server in
      var configuration = Self.configuration(port: server.port)
      configure(&configuration)
      let bot = try RunningIRCTransport(configuration)
      try await waitUntil(timeout: .seconds(10)) {
        let lines = server.lines(of: 0)
        // The WHOIS's verdict comes after the JOIN: wait for the last word of the WHOIS as well.
        return lines.contains { $0.hasPrefix("JOIN") } && until(lines)
      }
      await bot.stop()
      return server.lines(of: 0)
    }
  }

  @Test("NickServ is the services (313 'is a Network Service'): IDENTIFY to NickServ@<its server>")
  func services() async throws {
    let lines = try await Self.linesSent(
      nickServ: .service(server: "services.scripted", text: "is a Service on Scripted"))
    #expect(
      lines.filter { $0.contains("IDENTIFY") } == ["PRIVMSG NickServ@services.scripted :IDENTIFY awfulbot s3cret"])
  }

  @Test("a user holds the nick NickServ (no services, or an IRC operator): the password is never sent")
  func impostor() async throws {
    for holder in [
      IRCScriptedServer.NickServ.user(operatorText: nil), .user(operatorText: "is an IRC operator"), .absent,
    ] {
      let lines = try await Self.linesSent(
        nickServ: holder,
        until: { lines in lines.contains("WHOIS NickServ") || lines.contains { $0.hasPrefix("PRIVMSG") } })
      #expect(lines.contains("WHOIS NickServ"), "\(holder)")
      #expect(!lines.joined().contains("s3cret"), "\(holder): \(lines)")
    }
  }

  @Test("servicesServer configured: IDENTIFY to NickServ@<it>, without a WHOIS")
  func configuredServicesServer() async throws {
    let lines = try await Self.linesSent(configure: { $0.servicesServer = "services.example.net" })
    #expect(
      lines.filter { $0.contains("NickServ") } == ["PRIVMSG NickServ@services.example.net :IDENTIFY awfulbot s3cret"])
  }

  @Test("the server offers SASL PLAIN: the password logs in by SASL, no IDENTIFY; nickServSASL false turns that off")
  func saslPreferred() async throws {
    let sasl = try await Self.linesSent(
      caps: "sasl=PLAIN multi-prefix", nickServ: .service(server: "services.scripted", text: "is a Network Service"),
      until: { _ in true })
    #expect(sasl.contains("AUTHENTICATE PLAIN"))
    let payload = Data("awfulbot\0awfulbot\0s3cret".utf8).base64EncodedString()
    #expect(sasl.contains("AUTHENTICATE \(payload)"))
    #expect(!sasl.contains { $0.contains("NickServ") }, "\(sasl)")

    let off = try await Self.linesSent(
      caps: "sasl=PLAIN multi-prefix", nickServ: .service(server: "services.scripted", text: "is a Network Service"),
      configure: { $0.nickServSASL = false })
    #expect(!off.contains { $0.hasPrefix("AUTHENTICATE") || $0.contains("CAP REQ sasl") }, "\(off)")
    #expect(off.filter { $0.contains("IDENTIFY") } == ["PRIVMSG NickServ@services.scripted :IDENTIFY awfulbot s3cret"])
  }

  @Test("SASL with the NickServ password refused: the bot registers anyway and identifies to the services")
  func saslRefusedFallsBack() async throws {
    let lines = try await Self.linesSent(
      caps: "sasl=PLAIN", saslAccepts: false,
      nickServ: .service(server: "services.scripted", text: "is a Network Service"))
    #expect(lines.contains("AUTHENTICATE PLAIN"))
    #expect(lines.contains("CAP END"))
    #expect(
      lines.filter { $0.contains("IDENTIFY") } == ["PRIVMSG NickServ@services.scripted :IDENTIFY awfulbot s3cret"])
  }

  @Test("servicesServer must be one word")
  func servicesServerChecked() throws {
    var configuration = Self.configuration(port: 6667)
    configuration.servicesServer = "services.example.net evil"
    #expect(throws: IRCConfigurationError.self) { try configuration.validate() }
    configuration.servicesServer = "services.example.net"
    try configuration.validate()
  }

  @Test("the verdict from WHOIS replies: only a service's 313, about NickServ itself")
  func verdict() throws {
    func verdict(_ lines: [String]) throws -> IRCServicesCheck.Verdict? {
      var check = IRCServicesCheck()
      check.start()
      var last: IRCServicesCheck.Verdict?
      for line in lines {
        let message = try IRCMessage(parsing: line)
        if let numeric = message.command.numeric, let found = check.read(numeric, message) { last = found }
      }
      return last
    }
    #expect(
      try verdict([
        ":s 312 me NickServ services.net :x", ":s 313 me NickServ :is a Network Service", ":s 318 me NickServ :End",
      ])
        == .service(target: "NickServ@services.net"))
    #expect(
      try verdict([
        ":s 312 me NickServ irc.net :x", ":s 313 me NickServ :is an IRC operator", ":s 318 me NickServ :End",
      ])
        == .notService(reason: "NickServ on irc.net is not a network service"))
    // Replies about another nick are not about NickServ.
    #expect(
      try verdict([":s 312 me NickServ irc.net :x", ":s 313 me Other :is a Network Service", ":s 318 me NickServ :End"])
        == .notService(reason: "NickServ on irc.net is not a network service"))
    #expect(
      try verdict([":s 401 me NickServ :No such nick", ":s 318 me NickServ :End"])
        == .notService(reason: "nobody holds the nick NickServ"))
    // Nothing asked: nothing read.
    var idle = IRCServicesCheck()
    #expect(idle.read(318, try IRCMessage(parsing: ":s 318 me NickServ :End")) == nil)
  }
}
