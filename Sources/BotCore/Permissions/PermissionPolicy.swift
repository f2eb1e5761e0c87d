import ChatBridge
import Foundation

/// Who may do what. A sender's role is the highest of: the default role, what the config allowlist grants their
/// user id on that transport, and what the transport itself grants (Matrix room power, IRC channel operator).
package struct PermissionPolicy: Sendable, Hashable {
  /// transport name → user id → role. The transport `*` applies to every transport.
  package var grants: [String: [String: Role]]
  /// What everyone else gets: `viewer`, so reading commands are open (DESIGN.md "Permissions").
  package var defaultRole: Role

  package init(grants: [String: [String: Role]] = [:], defaultRole: Role = .viewer) {
    self.grants = grants
    self.defaultRole = defaultRole
  }

  package func role(of message: IncomingMessage) -> Role {
    role(transport: message.transport, userID: message.senderID, transportRole: message.transportRole)
  }

  package func role(transport: String, userID: String, transportRole: Role?) -> Role {
    let granted = [
      defaultRole,
      grants[transport]?[userID],
      grants["*"]?[userID],
      transportRole,
    ].compactMap { $0 }
    return granted.max() ?? defaultRole
  }

  /// nil when allowed, else the sentence to say in chat.
  package func denial(for message: IncomingMessage, command: String, needs required: Role) -> String? {
    let role = role(of: message)
    guard role < required else { return nil }
    return "“\(command)” needs the \(required) role; you are \(article(role)) \(role)."
  }

  private func article(_ role: Role) -> String {
    role == .admin ? "an" : "a"
  }
}
