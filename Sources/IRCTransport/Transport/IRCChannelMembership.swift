/// The channels of one connection: those joined (with who is in them and their modes), those being joined, and why
/// a join was refused. A new connection starts from an empty value; what outlives a connection (channels kicked
/// from, channels a reload removed, who the query rooms reach) is kept by the client.
struct IRCChannelMembership: Sendable {
  /// Joined channels by case-folded name.
  var channels: [String: IRCChannelState] = [:]
  /// JOINs sent and not yet answered (case-folded).
  var joining: Set<String> = []
  /// Why the server refused a join (case-folded name → its numeric's text).
  var joinFailures: [String: String] = [:]
}
