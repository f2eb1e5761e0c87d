import ChatBridge
import Foundation
import IRCTransport
import Testing

/// `IRCTransportConfiguration` is read and checked in one place: decoding reports every problem with its key (the
/// application puts its own key path in front), and `validate()` makes the same checks on a configuration built in
/// code.
@Suite("IRC configuration reading")
struct IRCConfigurationReadingTests {
  private static func problems(_ json: String) -> [String] {
    do {
      _ = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
      return []
    } catch let error as IRCConfigurationError {
      return error.problems
    } catch {
      return ["unexpected: \(error)"]
    }
  }

  @Test("hostile values name their keys, in the file's order, and never show a secret")
  func hostile() {
    let found = Self.problems(
      ##"{"server": "irc.example:70000", "nick": "bad nick", "channels": [{"name": "#ok", "key": "a,b"}, null, "#fine"], "channelRoles": {"oo": "admin"}, "sasl": {"account": "bot", "password": ""}, "nickServPassword": "hunter2", "floodBurst": 2.5, "pingIntervalSeconds": 0}"##
    )
    #expect(
      found == [
        "server: expected host:port, got \"irc.example:70000\"",
        "nick: nick “bad nick” contains a character IRC does not allow in nicks",
        "channels[0].key: must not be empty or contain spaces or commas",
        "channels[1]: expected a channel name or {\"name\", \"key\"}, got null",
        "channelRoles.oo: expected a channel member mode letter (q, a, o, h, v)",
        "sasl.password: missing (SASL PLAIN needs the account's password)",
        "floodBurst: expected a whole number, got 2.5", "pingIntervalSeconds: must be more than 0 seconds",
      ])
    #expect(!found.joined().contains("hunter2"))
  }

  @Test("the same checks for a configuration built in code")
  func validateShares() {
    var configuration = IRCTransportConfiguration(host: "irc.example", nick: "bot")
    configuration.channels = [.init(name: "#a"), .init(name: "b")]
    configuration.floodBurst = 0
    #expect(throws: IRCConfigurationError.self) { try configuration.validate() }
    do {
      try configuration.validate()
    } catch {
      #expect(
        error.problems == [
          "channels[1]: “b” is not a channel name (it must start with #, &, + or !)", "floodBurst: must be at least 1",
        ])
    }
  }

  @Test("the config file's server is read here as host and port: one schema, no translation before")
  func serverIsTheFileKey() throws {
    let json = #"{"server": "[::1]:6697", "nick": "bot", "tls": false}"#
    let read = try JSONDecoder().decode(IRCTransportConfiguration.self, from: Data(json.utf8))
    #expect(read.host == "::1" && read.port == 6697 && !read.tls)
    #expect(
      Self.problems(#"{"server": "irc.example.org:0", "nick": "bot"}"#) == [
        "server: expected host:port, got \"irc.example.org:0\""
      ])
    #expect(Self.problems(#"{"server": "irc.example.org", "nick": "bot"}"#).first?.hasPrefix("server: ") == true)
    #expect(Self.problems(#"{"host": "irc.example.org", "nick": "bot"}"#) == ["server: missing"])
  }

}
