import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

/// The account on probation, as the person at the console meets it: the bookmarked thread's new posts keep
/// arriving, new private messages too, `status` names the probation and its end, and `reply` and `pmreply` are
/// refused with that reason while nothing reaches the forum.
@Suite("Console: probation", .serialized)
struct ConsoleProbationTests {
  @Test(
    "probation on while a bookmarked thread gets posts: relays go on, reply and pmreply are refused with the reason")
  func probationReadsButDoesNotPost() async throws {
    try await ConsoleChat.with { chat in
      let state = chat.forum.state
      // 2030-06-25 18:50 UTC.
      await state.setProbation(until: Date(timeIntervalSince1970: 1_908_643_800))
      let before = chat.relayCount
      let postID = try await state.addPost(
        thread: 3_600_001, author: 1002, body: "Posted while the bot is on probation")
      let pmID = try await state.sendPrivateMessage(
        from: 1002, to: FakeForumSeed.botUserID, title: "Are you on probation?", body: "Just asking.")
      let relays = try await chat.relays(after: before, count: 2)
      #expect(relays.contains { $0.contains("Posted while the bot is on probation") && $0.contains("#post\(postID)") })
      #expect(relays.contains { $0.hasPrefix("Private message “Are you on probation?” from Pickled Tink") })

      let posts = await state.thread(3_600_001)?.postCount
      let status = try await chat.say("!status")
      #expect(
        status.contains(
          "Forum account: on probation until 2030-06-25 18:50 UTC; it reads and relays as usual, but !reply and "
            + "!pmreply are refused until it ends."), "\(status)")
      let refusal =
        "The forum account is on probation until 2030-06-25 18:50 UTC, so the forum refuses its posts and private "
        + "messages; nothing was sent. Relays go on as usual."
      #expect(try await chat.say("!reply 3600001 hello from probation") == refusal)
      #expect(try await chat.say("!pmreply \(pmID) not now") == refusal)
      #expect(try await chat.say("!confirm").hasPrefix("Nothing to confirm"))
      #expect(await state.thread(3_600_001)?.postCount == posts, "nothing was posted")
    }
  }
}
