/// A role in the bot's permission model, lowest first.
package enum Role: Int, Sendable, Hashable, Codable, Comparable, CaseIterable, CustomStringConvertible {
  case viewer = 0
  case member = 1
  case admin = 2

  package static func < (lhs: Role, rhs: Role) -> Bool { lhs.rawValue < rhs.rawValue }
  package var description: String {
    switch self {
    case .viewer: "viewer"
    case .member: "member"
    case .admin: "admin"
    }
  }

  /// The role a config file or command names (`viewer`, `member`, `admin`, any case); nil for anything else.
  package init?(name: String) {
    guard let role = Role.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
    self = role
  }

  /// "a viewer", "a member", "an admin": the role in a sentence.
  package var withArticle: String {
    self == .admin ? "an \(description)" : "a \(description)"
  }
}
