import AwfulBotTestKit
import ChatBridge
import FakeDiscord
import ForumModel
import Foundation
import Testing

@testable import DiscordTransport

/// Sends, edits and removals against the loopback receiver, which refuses what Discord refuses (content over 2,000
/// characters, an empty message, an unknown message).
@Suite struct DiscordTransportSendTests {
  static let post = DiscordRendererTests.relay(
    title: "A thread", author: "Alice", body: [.paragraph([.text("Hello @everyone, **look**.")])])

  @Test func aSendStoresTheMessageIDAndPingsNobody() async throws {
    try await DiscordWorld.with(configure: { $0.username = "Forum relay" }) { world in
      let receipt = try await world.transport.send(
        OutgoingMessage(.post(Self.post)), to: "general", idempotencyKey: "k1")
      let shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.count == 1)
      #expect(receipt.id == shown[0].id)
      #expect(shown[0].allowedMentionsParse == [])
      #expect(shown[0].username == "Forum relay")
      #expect(shown[0].reading.text.contains("Hello @everyone, **look**."))
      #expect(shown[0].reading.unexpectedEffects(allowing: ["bold"]) == [])
    }
  }

  @Test func aLongAnswerGoesOutInPartsAndItsReceiptNamesEveryPart() async throws {
    try await DiscordWorld.with { world in
      let answer = CommandAnswer(lines: (1...300).map { .item([.text("line \($0) of a long answer")]) })
      let receipt = try await world.transport.send(OutgoingMessage(.answer(answer)), to: "general", idempotencyKey: "k")
      let shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.count > 1)
      #expect(receipt.id == shown.map(\.id).joined(separator: ","))
      let lines = shown.flatMap { $0.reading.text.split(separator: "\n").map(String.init) }
      #expect(lines == (1...300).map { "• line \($0) of a long answer" })
    }
  }

  @Test func anEditIsFollowedInPlace() async throws {
    try await DiscordWorld.with { world in
      let receipt = try await world.transport.send(
        OutgoingMessage(.post(Self.post)), to: "general", idempotencyKey: "k")
      var edited = Self.post
      edited.body = [.paragraph([.text("Edited words")])]
      let editReceipt = try await world.transport.send(
        OutgoingMessage(.post(edited), replaces: receipt.id), to: "general", idempotencyKey: "edit:1")
      let shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.count == 1)
      #expect(editReceipt.id == receipt.id)
      #expect(shown[0].history.count == 1)
      #expect(shown[0].reading.text.contains("Edited words"))
      #expect(shown[0].allowedMentionsParse == [])
    }
  }

  @Test func anEditOfAMessageInPartsKeepsItsPartsAndSaysWhenItIsShortened() async throws {
    try await DiscordWorld.with { world in
      let long = CommandAnswer(lines: (1...300).map { .item([.text("line \($0) of a long answer")]) })
      let receipt = try await world.transport.send(OutgoingMessage(.answer(long)), to: "general", idempotencyKey: "k")
      let parts = receipt.id.split(separator: ",").count
      #expect(parts >= 2)
      // Shorter: the first part has it all, the others say they are empty now.
      _ = try await world.transport.send(
        OutgoingMessage(.answer(CommandAnswer("Short now.")), replaces: receipt.id), to: "general",
        idempotencyKey: "e1")
      var shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.count == parts)
      #expect(shown[0].reading.text == "Short now.")
      #expect(shown.dropFirst().allSatisfy { $0.content == DiscordTransport.emptiedPart })
      // Longer than every part together: shortened, and it says so.
      let longer = CommandAnswer(lines: (1...900).map { .item([.text("line \($0) of a longer answer")]) })
      _ = try await world.transport.send(
        OutgoingMessage(.answer(longer), replaces: receipt.id), to: "general", idempotencyKey: "e2")
      shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.count == parts)
      #expect(shown.last?.reading.text.hasSuffix(DiscordTransport.shortenedNote) == true)
    }
  }

  @Test func aRemovalDeletesEveryPartAndAGoneMessageCountsAsRemoved() async throws {
    try await DiscordWorld.with { world in
      let long = CommandAnswer(lines: (1...300).map { .item([.text("line \($0) of a long answer")]) })
      let receipt = try await world.transport.send(OutgoingMessage(.answer(long)), to: "general", idempotencyKey: "k")
      let first = receipt.id.split(separator: ",").first.map(String.init)!
      await world.state.deleteMessage(id: first)  // a moderator took one part down on Discord
      try await world.transport.redact(receipt.id, in: "general", reason: "deleted on the forum")
      #expect(await world.state.shown(webhookID: world.webhookID("general")).isEmpty)
      try await world.transport.redact(receipt.id, in: "general", reason: nil)
    }
  }

  @Test func aReceiptThatIsNoMessageIDIsRefusedBeforeAnyRequest() async throws {
    try await DiscordWorld.with { world in
      await #expect(throws: ChatSendError.self) {
        try await world.transport.redact("../../other", in: "general", reason: nil)
      }
      #expect(await world.state.requests.isEmpty)
    }
  }

  @Test func anUnknownRoomIsAPermanentFailure() async throws {
    try await DiscordWorld.with { world in
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(OutgoingMessage(.post(Self.post)), to: "elsewhere", idempotencyKey: "k")
      }
      guard case .permanent(let reason) = error else {
        Issue.record("expected permanent, got \(String(describing: error))"); return
      }
      #expect(reason.contains("elsewhere"))
    }
  }
}
