/// Whether the `NickServ` the bot would send its password to is the network's services, read from `WHOIS NickServ`:
/// a nick is only a nick, and on a network without services (or while they are split off) anyone can hold
/// `NickServ` and read `IDENTIFY <account> <password>`. The password goes only to a NickServ the server calls a
/// service (313 with "service" in its text: InspIRCd's "is a Service on <network>", Solanum's and UnrealIRCd's "is a
/// Network Service"; an IRC operator's 313 does not count), and then as `NickServ@<its server>` (312), which the
/// server delivers only to the NickServ on that server, never to a user who takes the nick later. Without that,
/// `servicesServer` in the config names the server outright.
struct IRCServicesCheck: Sendable, Equatable {
  static let nick = "NickServ"

  /// What the WHOIS showed, once it ended (318).
  enum Verdict: Sendable, Equatable {
    /// Send IDENTIFY to this target (`NickServ@<server>`).
    case service(target: String)
    /// Not a service (or nobody holds the nick): the password is not sent.
    case notService(reason: String)
  }

  private(set) var waiting = false
  private var server: String?
  private var isService = false

  /// The WHOIS is under way; the replies that follow are read.
  mutating func start() {
    self = IRCServicesCheck()
    waiting = true
  }

  /// Reads one reply of the WHOIS; the verdict when it is the last (318), nil otherwise or when it is about someone
  /// else (or no check is waiting).
  mutating func read(_ numeric: Int, _ message: IRCMessage) -> Verdict? {
    guard waiting, let subject = message.parameter(1), IRCCaseMapping.equal(subject, Self.nick) else { return nil }
    switch numeric {
    case 312:
      server = message.parameter(2)
    case 313:
      isService = (message.parameters.last ?? "").lowercased().contains("service")
    case 318:
      waiting = false
      guard let server, !server.isEmpty else {
        return .notService(reason: "nobody holds the nick \(Self.nick)")
      }
      guard isService else { return .notService(reason: "\(Self.nick) on \(server) is not a network service") }
      return .service(target: "\(Self.nick)@\(server)")
    default:
      break
    }
    return nil
  }
}
