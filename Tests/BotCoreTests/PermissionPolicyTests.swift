import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

@Suite("Permissions")
struct PermissionPolicyTests {
  func message(
    transport: String = "matrix", room: String = "!r", sender: String, role: Role? = nil, configured: Role? = nil
  ) -> IncomingMessage {
    IncomingMessage(
      transport: transport, room: room, senderID: sender, senderName: sender, text: "", transportRole: role,
      configuredRole: configured)
  }

  @Test("the highest of default, config grant and transport role wins")
  func roles() {
    let policy = PermissionPolicy(grants: ["matrix": ["@ann:x": .admin], "*": ["bob": .member, "@cy:x": .member]])
    #expect(policy.role(of: message(sender: "@ann:x")) == .admin)
    #expect(policy.role(of: message(transport: "irc", sender: "@ann:x")) == .viewer)
    // A bare account under `*` would be a different person on each IRC network: it applies on none.
    #expect(policy.role(of: message(transport: "irc", sender: "bob")) == .viewer)
    #expect(policy.role(of: message(transport: "irc-other", sender: "bob")) == .viewer)
    #expect(policy.role(of: message(transport: "matrix", sender: "@cy:x")) == .member, "a Matrix id is one person")
    #expect(policy.role(of: message(sender: "zed", role: .member)) == .member)
    #expect(policy.role(of: message(sender: "bob", role: .admin)) == .admin)
    #expect(policy.role(of: message(sender: "zed")) == .viewer)
  }

  @Test("room power counts for the account only in a room the config names")
  func accountScope() {
    let named = RoomRef(transport: "matrix", room: "!named")
    let policy = PermissionPolicy(grants: ["matrix": ["@ann:x": .admin]], namedRooms: [named])
    // The stranger created their own room: power 100 there, room admin, nothing on the account.
    let stranger = message(room: "!theirs", sender: "@eve:x", role: .admin)
    #expect(policy.role(of: stranger, in: .room) == .admin)
    #expect(policy.role(of: stranger, in: .account) == .viewer)
    // The same power in a room the config names counts.
    #expect(policy.role(of: message(room: "!named", sender: "@eve:x", role: .admin), in: .account) == .admin)
    // Config grants count everywhere: roles[] and the transport's own per-user grants.
    #expect(policy.role(of: message(room: "!theirs", sender: "@ann:x"), in: .account) == .admin)
    #expect(policy.role(of: message(room: "!theirs", sender: "@cy:x", configured: .member), in: .account) == .member)
    // Another transport's room of the same name is not named.
    #expect(
      policy.role(of: message(transport: "irc", room: "!named", sender: "eve", role: .admin), in: .account)
        == .viewer)
  }

  @Test("denials name the role needed, the role held and, for the account, who grants it")
  func denial() {
    let policy = PermissionPolicy()
    #expect(
      policy.denial(for: message(sender: "zed"), command: "mode", needs: .member, in: .room)
        == "“mode” needs the member role; you are a viewer.")
    #expect(policy.denial(for: message(sender: "zed", role: .admin), command: "mode", needs: .member, in: .room) == nil)
    #expect(
      policy.denial(for: message(sender: "zed"), command: "reply", needs: .admin, in: .account)
        == "“reply” acts on the bot's forum account, so it needs the admin role from the bot's operator (roles in "
        + "its config, or room power in a room its config names); you are a viewer.")
    // Room power that would do in a named room: the refusal says why it does not count here.
    let denial = policy.denial(
      for: message(sender: "zed", role: .admin), command: "reply", needs: .admin, in: .account)
    #expect(denial?.contains("your power in this room does not count, as the config does not name it") == true)
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

  @Test("what acts as or on the forum account is in account scope; only reading commands are open to untrusted events")
  func registryScopes() {
    let scopes = Dictionary(uniqueKeysWithValues: CommandRegistry.all.map { ($0.name, $0.scope) })
    for name in ["bookmark", "unbookmark", "reply", "confirm", "re", "pms", "pm", "pmreply", "replies"] {
      #expect(scopes[name] == .account, "\(name)")
    }
    for name in ["watch", "unwatch", "subscribe", "unsubscribe", "quiet", "mode", "pause", "resume", "undo", "unfurl"] {
      #expect(scopes[name] == .room, "\(name)")
    }
    for name in ["help", "bookmarks", "subscriptions", "forums", "threads", "latest", "status", "why", "cancel"] {
      #expect(scopes[name] == .reading, "\(name)")
    }
  }
}
