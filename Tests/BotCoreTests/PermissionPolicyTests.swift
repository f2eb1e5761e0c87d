import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

@Suite("Permissions")
struct PermissionPolicyTests {
  func message(transport: String = "matrix", sender: String, role: Role? = nil) -> IncomingMessage {
    IncomingMessage(
      transport: transport, room: "!r", senderID: sender, senderName: sender, text: "", transportRole: role)
  }

  @Test("the highest of default, config grant and transport role wins")
  func roles() {
    let policy = PermissionPolicy(grants: ["matrix": ["@ann:x": .admin], "*": ["bob": .member]])
    #expect(policy.role(of: message(sender: "@ann:x")) == .admin)
    #expect(policy.role(of: message(transport: "irc", sender: "@ann:x")) == .viewer)
    #expect(policy.role(of: message(transport: "irc", sender: "bob")) == .member)
    #expect(policy.role(of: message(sender: "zed", role: .member)) == .member)
    #expect(policy.role(of: message(sender: "bob", role: .admin)) == .admin)
    #expect(policy.role(of: message(sender: "zed")) == .viewer)
  }

  @Test("denials name the role needed and the role held")
  func denial() {
    let policy = PermissionPolicy()
    #expect(
      policy.denial(for: message(sender: "zed"), command: "reply", needs: .admin)
        == "“reply” needs the admin role; you are a viewer.")
    #expect(policy.denial(for: message(sender: "zed", role: .admin), command: "reply", needs: .admin) == nil)
  }

  @Test("every state-changing command needs at least member; reading commands are open")
  func registryRoles() {
    let roles = Dictionary(uniqueKeysWithValues: CommandRegistry.all.map { ($0.name, $0.role) })
    for name in ["bookmark", "unbookmark", "watch", "unwatch", "subscribe", "unsubscribe", "quiet", "mode", "undo"] {
      #expect(roles[name] == .member, "\(name)")
    }
    for name in ["reply", "pmreply", "unfurl", "replies", "reactions"] { #expect(roles[name] == .admin, "\(name)") }
    // confirm and cancel act on the sender's own preview, whose start was checked; re follows the room's setting.
    for name in [
      "help", "bookmarks", "subscriptions", "forums", "threads", "latest", "status", "why", "alerts", "confirm",
      "cancel", "re",
    ] {
      #expect(roles[name] == .viewer, "\(name)")
    }
  }
}
