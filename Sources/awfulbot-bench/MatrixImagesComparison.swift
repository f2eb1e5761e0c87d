import Foundation

/// Relays with one picture each against the same posts with the pictures left as links, in the same run: per round
/// one leg of each (the order swapped every round), each a fresh bot and room, `posts` posts queued, then one
/// `Dispatcher.drain()` timed. Every post links a picture of its own (`photo-<n>.png` on the emulator, about 58 KB),
/// so the pictures leg downloads, checks and uploads each one and sends an `m.image` after each relay; the links leg
/// sends the relay alone. What is compared is relays per second. Since issue 43 the pictures follow their relays
/// from a queue of their own, so the drain times the relays only: the ratio shows what pictures still cost a room's
/// relays (near 1× when nothing waits for them), not how fast pictures are uploaded.
struct MatrixImagesComparison {
  let context: MatrixBenchContext
  let posts: Int
  let rounds: Int
  let homeserverCPU = HomeserverCPU()

  func measure() async throws {
    print(
      "relays with one picture each vs the same posts as links, plain room (\(posts) posts per leg, \(rounds) rounds):")
    var ratios: [Double] = []
    var rows: [String] = []
    for round in 1...rounds {
      var legs: [Bool: MatrixThroughputResult] = [:]
      for pictures in round % 2 == 1 ? [true, false] : [false, true] {
        legs[pictures] = try await leg(pictures: pictures, round: round)
      }
      guard let shown = legs[true], let links = legs[false] else { continue }
      let shownRate = Double(posts) / max(shown.seconds, 1e-9)
      let linksRate = Double(posts) / max(links.seconds, 1e-9)
      ratios.append(shownRate / linksRate)
      print("  round \(round): pictures \(String(format: "%.1f", shownRate)) relays/s (\(shown.summary))")
      print("  round \(round): links \(String(format: "%.1f", linksRate)) relays/s (\(links.summary))")
      rows.append(
        "| \(round) | \(String(format: "%.1f", shownRate)) | \(String(format: "%.1f", linksRate)) | "
          + "\(String(format: "%.2f", shownRate / linksRate))× |")
    }
    print("| round | relays/s with pictures | relays/s as links | pictures ÷ links |")
    print("|---|---|---|---|")
    for row in rows { print(row) }
    print("median pictures ÷ links: \(String(format: "%.2f", MatrixBenchContext.median(ratios)))×")
  }

  /// One leg: a bot with pictures on or off, `posts` posts each linking a picture no other post links.
  private func leg(pictures: Bool, round: Int) async throws -> MatrixThroughputResult {
    let bot = try context.makeBot(
      database: "images-\(pictures ? "shown" : "links")-\(round)", runsDispatcher: false, pictures: pictures)
    return try await bot.run { bot in
      let rooms = try await MatrixThroughputRun.rooms(
        1, named: pictures ? "pictures" : "links", round: round, postsPerDrain: posts, bot: bot, context: context)
      let images = context.forum.url.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/images"
      for n in 1...posts {
        let number = (round * 2 + (pictures ? 1 : 0)) * 100_000 + n
        try await context.forum.addPost("Picture \(n) of \(posts): [img]\(images)/photo-\(number).png[/img]")
      }
      let poll = await bot.engine.polling.poll(.bookmarks)
      try MatrixLatencyRun.check(poll, "poll")
      let queued = try await bot.pendingRows()
      guard queued == posts else { throw MatrixBenchmarkError.failed("expected \(posts) queued rows, found \(queued)") }
      let (result, _) = try await MatrixThroughputRun.drain(
        queued, rooms: rooms, bot: bot, homeserverCPU: homeserverCPU, alongside: {})
      return result
    }
  }
}
