/// What one connection negotiates and learns while it registers: the capabilities offered and enabled, SASL, the
/// nick the server accepted, who the server says the bot is, its ISUPPORT. A new connection starts from
/// `init(nick:)`, so nothing of the last connection's negotiation carries over (as a channel handler's state is
/// made new with its channel) — a field added here is reset without anyone remembering to.
struct IRCRegistrationState: Sendable {
  /// 001 arrived on this connection.
  var registered = false
  /// CAP LS: capability → value.
  var offeredCaps: [String: String] = [:]
  var enabledCaps: Set<String> = []
  var pendingCapReplies = 0
  var capabilityNegotiationEnded = false
  var saslInProgress = false
  var saslSucceeded = false
  /// SASL PLAIN with `nickServPassword` (no `sasl` configured): tried when the server offers it, and a failure only
  /// leaves the bot to IDENTIFY instead.
  var saslOpportunistic = false
  /// `WHOIS NickServ` before the password goes to it (`IRCServicesCheck`).
  var services = IRCServicesCheck()
  var nickAttempt = 0
  /// The nick the bot has (or is asking for) on this connection.
  var currentNick: String
  var selfUser: String?
  var selfHost: String?
  var loggedInAccount: String?
  var support = IRCServerSupport()
  /// Nicks refused during this registration (433 and friends), in the order tried.
  var refusedNicks: [String] = []

  init(nick: String) { currentNick = nick }
}
