import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Testing

/// Walls in front of the forum (issue 35), as the person at the console meets them: a Cloudflare challenge, a rate
/// limit and a maintenance page, each in front of the bookmarks page, a thread page and the reply form. While it
/// stands, polls fail with what it is (never "logged out", never an empty list, no new login), `!status` says what
/// and since when once, and a reply is refused with the reason; when it lifts, every post made meanwhile is relayed
/// once and a reply goes through once.
@Suite("Console acceptance: walls in front of the forum", .serialized)
struct ConsoleWallTests {
  static func wall(_ kind: WallFault.Kind) -> ForumWall {
    switch kind {
    case .challenge: ForumWall(kind: .challenge, status: 403)
    case .rateLimit: ForumWall(kind: .rateLimit, status: 429, retryAfterSeconds: 1)
    case .maintenance: ForumWall(kind: .maintenance, status: 503, retryAfterSeconds: 1)
    }
  }

  @Test(
    "a wall in front of the bookmarks or a thread page: polls wait, status says so once, every post arrives once after",
    arguments: WallFault.Kind.allCases, ["/bookmarkthreads.php", "/showthread.php"])
  func wallInFrontOfPolling(kind: WallFault.Kind, path: String) async throws {
    try await ConsoleChat.with(pollSeconds: 3600) { chat in
      let state = chat.forum.state
      let expected = Self.wall(kind)
      await state.setFault(.wall(WallFault(kind: kind, paths: [path], retryAfterSeconds: 1)))
      let before = chat.relayCount
      var ids: [Int] = []
      for text in ["Made while the forum was walled.", "Also made behind the wall."] {
        ids.append(try await state.addPost(thread: 3_600_001, author: 1002, body: text))
      }
      await state.clearRequests()
      for _ in 1...2 {
        let report = try await chat.pollBookmarks()
        #expect(report.error == expected.description, "\(report)")
      }
      #expect(
        await state.requests().filter { $0.path == "/account.php" }.isEmpty, "a wall is never a reason to log in")
      #expect(chat.relayCount == before, "nothing relayed while walled")

      let status = try await chat.say("!status").components(separatedBy: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let wallLines = status.filter { $0.contains(expected.description) }
      #expect(wallLines.count == 1, "said once: \(status)")
      #expect(wallLines.first?.hasPrefix("Forum walled since ") ?? false, "\(status)")
      // The count is not fixed: the poller runs too (at its 10 s floor after the startup poll found activity), and a
      // poll of its that began before the wall went up may end after one of these and record its success.
      #expect(
        status.contains {
          $0.hasPrefix("Polling bookmarks: ") && $0.contains(" in a row, behind \(expected.name) (above). Next try ")
        }, "\(status)")
      #expect(!status.joined().contains("logged out"))

      await state.clearFault(.wall)
      #expect(try await chat.pollBookmarks().error == nil)
      let relays = try await chat.relays(after: before, count: 2)
      for id in ids { #expect(relays.filter { $0.contains("#post\(id)") }.count == 1, "\(relays)") }
      #expect(try await chat.pollBookmarks().error == nil)
      #expect(chat.relayCount == before + 2, "nothing twice")
      let after = try await chat.say("!status")
      #expect(!after.contains("walled") && !after.contains("behind"), "\(after)")
    }
  }

  @Test(
    "a wall in front of the reply form: the reply is refused with what it is, nothing is posted; after it, once",
    arguments: WallFault.Kind.allCases)
  func wallInFrontOfTheReplyForm(kind: WallFault.Kind) async throws {
    try await ConsoleChat.with(pollSeconds: 3600) { chat in
      let state = chat.forum.state
      let expected = Self.wall(kind)
      await state.setFault(.wall(WallFault(kind: kind, paths: ["/newreply.php"], retryAfterSeconds: 1)))
      let posts = await state.thread(3_600_002)?.postIDs.count
      await state.clearRequests()
      let preview = try await chat.say("!reply 3600002 Posted once, after the wall.")
      #expect(preview.contains("Say !confirm"), "\(preview)")
      let refused = try await chat.say("!confirm")
      // Polling reads on by itself; a command does not run again, so the answer says to ask again.
      #expect(refused.contains(expected.commandAnswer), "\(refused)")
      #expect(!refused.contains("nothing is lost") && !refused.contains("refused the reply"), "\(refused)")
      #expect(await state.thread(3_600_002)?.postIDs.count == posts, "nothing posted behind the wall")
      #expect(await state.requests().filter { $0.path == "/account.php" }.isEmpty)

      await state.clearFault(.wall)
      _ = try await chat.say("!reply 3600002 Posted once, after the wall.")
      let posted = try await chat.say("!confirm")
      #expect(posted.contains("showthread.php"), "\(posted)")
      #expect(await state.thread(3_600_002)?.postIDs.count == (posts ?? 0) + 1, "posted once")
    }
  }

  @Test(
    "a wall in front of what a command reads: the answer says what it is and to ask again",
    arguments: WallFault.Kind.allCases)
  func wallInFrontOfACommand(kind: WallFault.Kind) async throws {
    try await ConsoleChat.with(pollSeconds: 3600) { chat in
      let state = chat.forum.state
      await state.setFault(.wall(WallFault(kind: kind, paths: ["/banlist.php"], retryAfterSeconds: 1)))
      let answer = try await chat.say("!lepers 1002")
      #expect(answer == Self.wall(kind).commandAnswer, "\(answer)")
      await state.clearFault(.wall)
      let rapSheet = try await chat.say("!lepers 1002")
      #expect(rapSheet.contains("rap sheet"), "\(rapSheet)")
    }
  }
}
