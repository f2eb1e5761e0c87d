import BotCore
import ChatBridge
import Foundation
import Testing

@testable import AwfulBotApp

/// `roles[].forumName` is the one place the bot learns a chat user's forum name (what `alert` calls "your own name").
@Suite("configuration: forum names of chat users")
struct AlertForumNameConfigurationTests {
  static func configuration(roles: String) throws -> AppConfiguration {
    try AppConfiguration.parse(
      data: Data(
        #"{"forum": {"username": "bot", "password": "x"}, "transports": [{"type": "console"}], "roles": \#(roles)}"#
          .utf8),
      checksSecrets: false)
  }

  @Test("roles[].forumName reaches the permission policy, by transport and user id")
  func reachesThePolicy() throws {
    let configuration = try Self.configuration(
      roles: #"[{"transport": "console", "user": "operator", "role": "member", "forumName": "Goon Operator"}]"#)
    let policy = BotApplication.permissionPolicy(for: configuration)
    let message = IncomingMessage(
      transport: "console", room: "console", senderID: "operator", senderName: "someone else", text: "!alert")
    #expect(policy.forumName(of: message) == "Goon Operator")
    var stranger = message
    stranger.senderID = "mallory"
    stranger.senderName = "Goon Operator"
    #expect(policy.forumName(of: stranger) == nil, "a display name gives no forum name")
  }

  @Test("an empty forumName is a configuration error")
  func emptyIsRefused() throws {
    #expect(throws: (any Error).self) {
      try Self.configuration(
        roles: #"[{"transport": "console", "user": "operator", "role": "member", "forumName": " "}]"#)
    }
  }
}
