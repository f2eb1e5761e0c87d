import FakeForum
import Foundation
import ServiceLifecycle

/// Makes the emulated forum lively for the demo: a new post every few seconds in one of the bot's bookmarked
/// threads, a new Leper's Colony entry every fifth post (for the post just made), and one new announcement a little
/// after the start, so the user sees relays arrive.
struct ForumActivityGenerator: Service {
  let state: ForumState
  /// Seconds between posts at speed 1.
  let interval: Double
  let announcementAfter: Double
  let report: @Sendable (String) -> Void

  static let threads = [3_600_001, 3_600_002, 3_600_003]
  static let authors = [1002, 1003, 1004, 1005]
  static let bodies = [
    "Has anyone tried the new build? It relays posts into chat now.",
    "[quote=\"Pickled Tink\"]\nIt works on my machine.\n[/quote]\nFamous last words. 😅",
    "Ça fonctionne très bien ici, merci ! 🇨🇦",
    "[b]Bold claim:[/b] the cursor never moves backwards.",
    "Here is a link: https://example.com/changelog and a [spoiler]spoiler[/spoiler].",
    "Line one\nLine two — with “curly quotes”.",
    "@room this should not ping anyone in chat.",
    // The forum's own attachment (the seed's desk picture): a Matrix room shows it, the console its link.
    "My desk, as promised:\n[img]attachment.php?attachmentid=70001[/img]",
  ]
  /// Who the moderators punish (never the bot account), why, and for how long.
  static let jerks = [1002, 1003]
  static let punishments: [(kind: FakePunishment.Kind, reason: String, length: String?)] = [
    (.probation, "Posting the same changelog link in every thread.", "6 hours"),
    (.probation, "<b>@room</b> pings are not welcome here.", "1 day"),
    (.autoban, "Breaking the rules with a <i>fabulous</i> thread!", nil),
    (.ban, "Ban evasion.", nil),
  ]

  func run() async throws {
    let start = ContinuousClock.now
    var announced = false
    var count = 0
    while !Task.isShuttingDownGracefully {
      do {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(interval)) }
      } catch {
        return
      }
      if Task.isShuttingDownGracefully { return }
      let thread = Self.threads[count % Self.threads.count]
      let author = Self.authors[count % Self.authors.count]
      let body = Self.bodies[count % Self.bodies.count]
      count += 1
      if let postID = try? await state.addPost(thread: thread, author: author, body: body) {
        let name = await state.user(author)?.name ?? "someone"
        let title = await state.thread(thread)?.title ?? "thread \(thread)"
        report("[forum] \(name) posted #\(postID) in “\(title)”")
        if count % 5 == 0 { await punish(for: postID, number: count / 5) }
      }
      if !announced, ContinuousClock.now - start >= .seconds(announcementAfter) {
        announced = true
        try? await state.addAnnouncement(
          title: "Forum maintenance tonight", author: 1004,
          body: "The forums will be read-only for an hour tonight. Thanks for shopping in advance!")
        report("[forum] a new announcement was posted")
      }
    }
  }

  /// A moderator (Majuju, approved by angerbot) puts one of the usual suspects in the Leper's Colony for a post.
  private func punish(for postID: Int, number: Int) async {
    let jerk = Self.jerks[number % Self.jerks.count]
    let punishment = Self.punishments[number % Self.punishments.count]
    guard
      (try? await state.addPunishment(
        kind: punishment.kind, user: jerk, requester: 1005, approver: 1004, reasonHTML: punishment.reason,
        probationLength: punishment.length, postID: postID)) != nil
    else { return }
    let name = await state.user(jerk)?.name ?? "someone"
    let article = punishment.kind.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    report("[forum] \(name) got \(article) \(punishment.kind.rawValue) in the Leper's Colony")
  }
}
