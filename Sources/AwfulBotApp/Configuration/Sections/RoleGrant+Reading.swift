import ChatBridge

extension AppConfiguration.RoleGrant: Decodable {
  /// `roles[]`: a role by name in any case (`Role(name:)`), for a user of a configured transport, and optionally
  /// their forum username (`forumName`). An unknown role is a configuration error, never a quiet viewer.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    let transport = reader.string(.transport, required: true)
    let user = reader.string(.user, required: true)
    let name = reader.string(.role, required: true)
    let forumName = reader.string(.forumName)
    if let forumName, forumName.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report(.forumName, "must not be empty")
    }
    reader.checkTransport(.transport, named: transport)
    let role = name.flatMap(Role.init(name:))
    if let name, role == nil { reader.report(.role, "expected viewer, member or admin, got \"\(name)\"") }
    if let user, user.isEmpty { reader.report(.user, "must not be empty") }
    try reader.finish()
    guard let transport, let user, let role else { throw ConfigurationSkip() }
    self.init(transport: transport, user: user, role: role, forumName: forumName)
  }
}
