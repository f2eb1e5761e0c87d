import ChatBridge

/// Who may post to the forum from a room by answering a relay (a Matrix reply, `re r7`, a ✅ on a preview): off, or
/// everyone from a role up. The default is admins only: posting speaks for the bot's forum account.
package enum ReplyPermission: Sendable, Hashable, CustomStringConvertible {
  case off
  case role(Role)

  package static let `default` = ReplyPermission.role(.admin)

  /// `off`, `viewer`, `member` or `admin` (any case), as the config and the `replies` command write it.
  package init?(name: String) {
    if name.lowercased() == "off" {
      self = .off
    } else if let role = Role(name: name) {
      self = .role(role)
    } else {
      return nil
    }
  }

  package var description: String {
    switch self {
    case .off: "off"
    case .role(let role): role.description
    }
  }

  /// Whether someone of `role` may answer relays here.
  package func allows(_ role: Role) -> Bool {
    guard case .role(let needed) = self else { return false }
    return role >= needed
  }
}

extension ReplyPermission: Codable {
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let permission = ReplyPermission(name: name) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown reply permission \(name)")
    }
    self = permission
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
