import ChatBridge
import Foundation

/// Everything one IRC connection needs. Decodable from the app's config file: every field but `host` and `nick` has
/// a default, durations are in seconds. Secrets (`sasl.password`, `nickServPassword`) are never logged; the
/// description redacts them.
package struct IRCTransportConfiguration: Sendable, Hashable, Decodable, CustomStringConvertible {
  /// The connection's name in the bot (`irc`, `irc-libera`): the `transport` of its rooms.
  package var name: String = "irc"
  package var host: String
  /// Defaults to 6697 with TLS, 6667 without.
  package var port: Int
  package var tls: Bool = true
  /// A PEM file of CA certificates to trust in addition to the system's (a private network, the tests).
  package var caFile: String?
  package var nick: String
  /// Tried in order when the nick is taken; the bot keeps trying to get `nick` back.
  package var alternateNicks: [String] = []
  package var username: String?
  package var realname: String = "AwfulBot"
  package var sasl: SASL?
  /// Client certificate and key (PEM) presented over TLS; used by SASL EXTERNAL (CertFP).
  package var clientCertificateFile: String?
  package var clientKeyFile: String?
  /// NickServ password (account: `sasl.account`, else `nick`), only when set and not empty. Used for SASL PLAIN when
  /// the server offers it (unless `nickServSASL` is false); otherwise sent with `IDENTIFY` after registering, and
  /// only to the network's services: to `NickServ@<servicesServer>`, or, without it, to the NickServ a `WHOIS` shows
  /// to be a network service (see `IRCServicesCheck`).
  package var nickServPassword: String?
  /// The services' server name (`services.libera.chat`): `IDENTIFY` goes to `NickServ@<it>` without a WHOIS first.
  package var servicesServer: String?
  /// Whether `nickServPassword` logs in by SASL PLAIN where the server offers SASL (the default): the password then
  /// goes to the server at registration, never to a nick.
  package var nickServSASL: Bool = true
  package var channels: [Channel] = []
  /// Join a channel again after being kicked from it.
  package var rejoinOnKick: Bool = false
  /// How relayed posts are sent; command replies are always PRIVMSG.
  package var relayAs: RelayCommand = .notice
  /// How relayed posts look: `compact` (one line per post, the default) or `full` (header, excerpt, link).
  package var relayStyle: IRCRenderer.RelayStyle = .compact
  /// Lines a relayed post may take in the `full` style before its excerpt is cut (it ends with the post link).
  /// Command answers are never cut.
  package var linesPerMessage: Int = 4
  /// Flood control: lines that may go at once, then one line per `floodIntervalSeconds`. The defaults keep well
  /// within ordinary network limits (about one line a second sustained) and still relay a thread getting 30 posts a
  /// minute in compact style as they come (a post is one line; one PING acknowledges several).
  package var floodBurst: Int = 5
  package var floodIntervalSeconds: Double = 1.5
  /// mIRC bold (and colour, when `titleColour` is set) for the titles of relayed posts.
  package var mircFormatting: Bool = false
  package var titleColour: Int?
  /// Account names (services accounts, matched with the IRCv3 account tag) or `nick!user@host` masks.
  package var admins: [String] = []
  package var members: [String] = []
  /// The role a member mode in the channel grants there: mode letter (`q`, `a`, `o`, `h`, `v`) → `admin`, `member`
  /// or `viewer`. By default operators, half-ops and the higher `q`/`a` modes are admins and voiced users members;
  /// a configured map replaces the default, and `{}` grants nothing for channel status.
  package var channelRoles: [Character: Role] = Self.defaultRoles
  package var quitMessage: String = "AwfulBot shutting down"
  /// Our own PING after this much silence; a missing PONG after `pingTimeoutSeconds` means the link is dead.
  package var pingIntervalSeconds: Double = 90
  package var pingTimeoutSeconds: Double = 60
  /// Reconnect backoff: first delay, doubling per failed attempt up to the maximum, with ±`reconnectJitter`.
  package var reconnectDelaySeconds: Double = 2
  package var maximumReconnectDelaySeconds: Double = 300
  package var reconnectJitter: Double = 0.2
  /// How often to try to get the configured nick back while using an alternate.
  package var nickReclaimSeconds: Double = 60
  /// How long a send waits for the connection (and the channel join) before it fails as retryable, so the
  /// outbox keeps the message.
  package var sendWaitSeconds: Double = 30
  package var connectTimeoutSeconds: Double = 15
  /// Registration (CAP, SASL, 001) must finish within this.
  package var registrationTimeoutSeconds: Double = 60
  /// The answer to CTCP VERSION: the bot's name and version, set by the application (not read from the config).
  package var versionReply: String = "AwfulBot"
  /// Where this transport's settings are in the bot's config file (`transports[2]`), so a message can name the
  /// key to fix; set by the application, nil elsewhere.
  package var settingsPath: String?

  /// Operators, half-ops and the higher `q`/`a` modes are admins, voiced users members.
  package static let defaultRoles: [Character: Role] = [
    "q": .admin, "a": .admin, "o": .admin, "h": .admin, "v": .member,
  ]

  package struct Channel: Sendable, Hashable, Codable {
    package var name: String
    package var key: String?

    package init(name: String, key: String? = nil) {
      self.name = name
      self.key = key
    }
  }

  package struct SASL: Sendable, Hashable, Codable {
    package enum Mechanism: String, Sendable, Hashable, Codable {
      case plain = "PLAIN"
      case external = "EXTERNAL"
    }
    package var mechanism: Mechanism = .plain
    /// The services account (PLAIN); ignored by EXTERNAL, where the certificate names the account.
    package var account: String?
    package var password: String?

    package init(mechanism: Mechanism = .plain, account: String? = nil, password: String? = nil) {
      self.mechanism = mechanism
      self.account = account
      self.password = password
    }

    private enum CodingKeys: String, CodingKey { case mechanism, account, password }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      mechanism = try container.decodeIfPresent(Mechanism.self, forKey: .mechanism) ?? .plain
      account = try container.decodeIfPresent(String.self, forKey: .account)
      password = try container.decodeIfPresent(String.self, forKey: .password)
    }
  }

  package enum RelayCommand: String, Sendable, Hashable, Codable {
    case notice
    case privmsg
  }

  package init(name: String = "irc", host: String, port: Int? = nil, tls: Bool = true, nick: String) {
    self.name = name
    self.host = host
    self.tls = tls
    self.port = port ?? (tls ? 6697 : 6667)
    self.nick = nick
  }

  /// The user name sent with USER.
  package var effectiveUsername: String { username ?? nick }

  package var description: String {
    "IRC \(name) \(nick)@\(host):\(port)\(tls ? " (TLS)" : "") channels \(channels.map(\.name))"
      + (sasl.map { " SASL \($0.mechanism.rawValue)" } ?? "")
  }
}
