import BotCore
import ChatBridge

extension AppConfiguration.RoomSettings: Decodable {
  /// `rooms[]`: a room of a configured transport seeded at start, its subscriptions, mode, reply role and the rest of
  /// its settings in the grammar of the chat commands that change them.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    let transport = reader.string(.transport, required: true)
    let name = reader.string(.room, required: true)
    reader.checkTransport(.transport, named: transport)
    if let name, name.isEmpty { reader.report(.room, "must not be empty") }
    var subscriptions: [RoomSubscriptionSpec]?
    if let items = reader.list(.subscriptions) {
      subscriptions = []
      // Each at its own position, a malformed one among them or not.
      for (position, item) in items.enumerated() {
        let path = "\(reader.at(.subscriptions))[\(position)]"
        guard case .string(let text) = item else {
          reader.report(atPath: path, "expected a string, got \(item.kindName)")
          continue
        }
        if let spec = RoomSubscriptionSpec(parsing: text) {
          subscriptions?.append(spec)
        } else {
          reader.report(
            atPath: path,
            "expected bookmarks, bookmarks:<colour>, announcements, thread:<id>, forum:<id> or lepers, got \"\(text)\"")
        }
      }
    }
    var mode: RelayMode?
    if let text = reader.string(.mode) {
      switch RelayMode.parse(text) {
      case .success(let parsed): mode = parsed
      case .failure(let error):
        let detail = error == .unknown ? "" : " (\(error.description))"
        reader.report(
          .mode, "expected each, summary [K], digest hourly or digest daily HH:MM, got \"\(text)\"\(detail)")
      }
    }
    var replyRole: ReplyPermission?
    if let text = reader.string(.replyRole) {
      replyRole = ReplyPermission(name: text)
      if replyRole == nil { reader.report(.replyRole, "expected off, viewer, member or admin, got \"\(text)\"") }
    }
    let reactions = reader.bool(.reactions)
    let editNotices = reader.bool(.editNotices)
    let pictures: PictureDisplay? = reader.choice(.pictures, expected: "inline or links")
    try reader.finish()
    guard let transport, let name else { throw ConfigurationSkip() }
    self.init(
      transport: transport, room: name, subscriptions: subscriptions, mode: mode, replyRole: replyRole,
      reactions: reactions, editNotices: editNotices, pictures: pictures)
  }
}
