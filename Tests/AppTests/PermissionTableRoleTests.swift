import AwfulBotApp
import AwfulBotAppTestKit
import ChatBridge
import Testing

@Suite("who may act: roles as the transports read them")
struct PermissionTableRoleTests {
  /// A Matrix account and an IRC network whose secrets are all left to the environment, and roles written in any case.
  static var transports: [[String: Any]] {
    [
      [
        "type": "matrix", "homeserver": "https://m.example.org", "userID": "@bot:example.org",
        "password": ["env": "MATRIX_PASSWORD"], "rooms": ["#goons:example.org"],
        "roleOverrides": ["@v:example.org": "VIEWER", "@a:example.org": "Admin"],
      ],
      [
        "type": "irc", "server": "irc.example.org:6697", "nick": "bot", "channels": ["#goons"],
        "sasl": ["mechanism": "PLAIN", "account": "bot"], "channelRoles": ["v": "Member", "o": "ADMIN", "h": "admin"],
      ],
    ]
  }

  @Test("roleOverrides and channelRoles are printed as Roles, read without the secrets the environment would give")
  func typedRoles() throws {
    let secrets = ["MATRIX_PASSWORD": "pw", "AWFULBOT_IRC_SASL_PASSWORD": "sasl"]
    // Valid with the daemon's secrets; the table itself is drawn with none of them.
    for configuration in [
      try OpsConfig.parse(["transports": Self.transports], environment: secrets),
      try OpsConfig.parse(["transports": Self.transports], checksSecrets: false),
    ] {
      let results = PermissionTable.results(for: configuration)
      let matrix = try #require(results.first { $0.name == "who may act on matrix" })
      #expect(matrix.outcome == .pass, "\(matrix.detail)")
      #expect(
        matrix.detail.contains(
          "roleOverrides: @a:example.org (admin), @v:example.org (viewer); room power 50+ member, 100+ admin in "
            + "#goons:example.org"), "\(matrix.detail)")
      let irc = try #require(results.first { $0.name == "who may act on irc" })
      #expect(irc.outcome == .pass, "\(irc.detail)")
      #expect(irc.detail.contains("channel modes +o +h admin, +v member in #goons"), "\(irc.detail)")
    }
  }

  @Test("the default channel roles read as IRC ranks its modes; none is no channel modes")
  func channelModes() {
    #expect(
      PermissionTable.modesText(["q": .admin, "a": .admin, "o": .admin, "h": .admin, "v": .member])
        == "+q +a +o +h admin, +v member")
    #expect(PermissionTable.modesText(["x": .viewer, "v": .admin]) == "+v admin, +x viewer")
  }
}
