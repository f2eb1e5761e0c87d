import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.ElementPolicy {
  /// Issue 44, the Leper's Colony on Synapse: a plain room and an encrypted one (read by a client with Element's
  /// policy) follow the Colony. What it held when they subscribed is not relayed; three entries given through the
  /// emulator, one of them while the bot is stopped, reach each room once, in order, as HTML with the sentence, the
  /// user, the moderator, the reason and a link to the post; the encrypted room reads the plain room's content,
  /// decrypted. A rap sheet answers `!lepers`. A reason with markup, a script, `@room` and a crowd of mentions is
  /// read as text and allowed tags, pinging nobody.
  @Test(
    "the Leper's Colony in a plain and an encrypted room: once each across a restart, a rap sheet, a hostile reason")
  func lepersInRooms() async throws {
    try await MatrixTestWorld.with { world in
      let botID = world.botAccount.userID
      let owner = try await MatrixHuman.register("owner")
      let alice = try await MatrixE2EEHuman.register("alice")
      defer { Task { await alice.quit() } }
      let configure = { (configuration: inout MatrixTransportConfiguration) in Self.configure(&configuration) }
      let state = world.forumState
      let forumRoot = world.forumURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))

      let (plain, secret) = try await MatrixBotProcess(world: world, configure: configure).run { bot in
        let plain = try await bot.joinedRoom(owner: owner)
        let secret = try await alice.createEncryptedRoom(name: "lepers", invite: [botID])
        try await bot.waitUntilJoined(secret)
        for room in [plain, secret] {
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .lepers)
        }
        #expect(await bot.engine.polling.poll(.lepers).changed == 0, "the demo's entries are not relayed")
        _ = try await state.addPunishment(
          kind: .probation, user: 1003, requester: 1005, approver: nil,
          reasonHTML: #"posting in <b>all caps</b>, see <a href="https://example.com/rules">the rules</a>"#,
          probationLength: "6 hours", postID: 400_000_201)
        _ = try await state.addPunishment(
          kind: .ban, user: 1002, requester: 1005, approver: 1004, reasonHTML: "ban evasion", postID: 400_000_202)
        #expect(await bot.engine.polling.poll(.lepers).changed == 2)
        _ = try await bot.waitUntilOutboxDelivered()
        return (plain, secret)
      }

      // Given while the bot is stopped; the next start's first read relays it.
      _ = try await state.addPunishment(
        kind: .autoban, user: 1002, requester: 1004, approver: nil, reasonHTML: "too many probations")
      try await MatrixBotProcess(world: world, configure: configure).run { bot in
        #expect(await bot.engine.polling.poll(.lepers).changed == 1)
        #expect(await bot.engine.polling.poll(.lepers).changed == 0)
        _ = try await bot.waitUntilOutboxDelivered()

        let relays = try await owner.waitForMessages(in: plain) { $0.from(botID).count >= 3 }.from(botID)
        #expect(relays.count == 3, "\(relays.map(\.body))")
        let bodies = relays.compactMap(\.body)
        #expect(bodies.count == 3)
        #expect(bodies.first?.hasPrefix("PROBATION (6 hours): Zoë Québec, by Majuju on ") == true, "\(bodies)")
        #expect(bodies.first?.contains(": posting in all caps, see the rules ") == true, "\(bodies)")
        #expect(
          bodies.first?.hasSuffix("\(forumRoot)/showthread.php?goto=post&postid=400000201#post400000201") == true)
        #expect(bodies.dropFirst().first?.hasPrefix("BAN: Pickled Tink, by Majuju on ") == true, "\(bodies)")
        #expect(bodies.last?.hasPrefix("AUTOBAN: Pickled Tink, by angerbot on ") == true, "\(bodies)")
        #expect(bodies.last?.hasSuffix("\(forumRoot)/banlist.php?userid=1002") == true, "\(bodies)")
        let html = try #require(relays.first?.formattedBody)
        #expect(html.hasPrefix("<p><b>PROBATION (6 hours)</b>: <b>Zoë Québec</b>, by Majuju on "), "\(html)")
        #expect(html.contains(#"<blockquote>posting in <b>all caps</b>, see <a href="https://example.com/rules">"#))
        #expect(
          html.hasSuffix(
            #"<p><a href="\#(forumRoot)/showthread.php?goto=post&amp;postid=400000201#post400000201">"#
              + "The post that earned it</a></p>"), "\(html)")
        #expect(relays.allSatisfy { $0.msgtype == "m.notice" })

        // The encrypted room reads the same three, decrypted, and nothing in clear text.
        let inside = try await alice.messages(in: secret, from: botID, count: 3)
        #expect(inside.count == 3)
        #expect(inside.allSatisfy { $0.decrypted })
        #expect(inside.map(\.body) == relays.map(\.body))
        #expect(inside.map(\.formattedBody) == relays.map(\.formattedBody))
        #expect(try await alice.account.messages(in: secret).from(botID).isEmpty, "nothing in clear text")

        // A rap sheet.
        let asked = try await owner.say("!lepers Pickled Tink", in: plain)
        let answer = try #require(
          try await owner.waitForMessages(in: plain) { $0.contains { $0.replyTo == asked } }.first {
            $0.replyTo == asked
          })
        let sheet = try #require(answer.body)
        #expect(
          sheet.hasPrefix("Pickled Tink's rap sheet: 4 entries, newest first: \(forumRoot)/banlist.php?userid=1002"))
        #expect(sheet.components(separatedBy: "\n").filter { $0.hasPrefix("• ") }.count == 4, "\(sheet)")
        #expect(sheet.components(separatedBy: "\n").dropFirst().first?.hasPrefix("• AUTOBAN, ") == true, "\(sheet)")

        // A hostile reason, read in both rooms.
        let crowd = (1...30).map { "@user\($0):localhost" }.joined(separator: " ")
        _ = try await state.addPunishment(
          kind: .permaban, user: 1003, requester: 1005, approver: nil,
          reasonHTML:
            #"<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(2)">appeal</a> "#
            + #"<b>bye</b> @room @everyone <a href="https://matrix.to/#/@admin:localhost">admin</a> "# + crowd,
          postID: 400_000_203)
        #expect(await bot.engine.polling.poll(.lepers).changed == 1)
        _ = try await bot.waitUntilOutboxDelivered()
        let hostile = try #require(
          try await owner.waitForMessages(in: plain) {
            $0.from(botID).contains { $0.body?.hasPrefix("PERMABAN") == true }
          }.from(botID).first { $0.body?.hasPrefix("PERMABAN") == true })
        let secretHostile = try #require(
          try await alice.messages(in: secret, from: botID, containing: "PERMABAN").last)
        #expect(secretHostile.decrypted)
        #expect(secretHostile.content == hostile.content, "the same content inside as in the plain room")
        let body = try #require(hostile.body)
        let formatted = try #require(hostile.formattedBody)
        for text in [body, formatted] {
          for mention in ["@room", "@everyone", "@user1:", "@user30:", "@admin"] {
            #expect(!text.contains(mention), "\(mention) in \(text)")
          }
        }
        #expect(body.contains("@\u{2060}room"))
        let lowered = formatted.lowercased()
        #expect(!lowered.contains("<script") && !lowered.contains("<img") && !lowered.contains("javascript:"))
        #expect(!formatted.contains("matrix.to"))
        #expect(formatted.contains("<b>bye</b>"))
        #expect(hostile.content["m.mentions"] == [:], "a relay mentions nobody")
      }
    }
  }
}
