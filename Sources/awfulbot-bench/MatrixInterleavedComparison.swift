import Foundation

/// The bot against the plain sender one after the other, as `MatrixThroughputComparison` does, but in short
/// alternating chunks: each round is `events` events per sender sent `chunk` at a time, bot and plain sender taking
/// turns (who goes first swaps every chunk), one bot and one set of connections kept for the whole room count.
///
/// Why: Synapse's CPU per event moves by ±10 % from one 15-second leg to the next whoever sends, so a single round's
/// ratio says more about the homeserver than about the senders. Turns of a few seconds were meant to put both senders
/// into nearly the same stretch of it; measured, the rounds' ratios still spread by about ±6 %, so the drift is
/// faster than that too. Unlike the side-by-side leg, each sender has the homeserver to itself while it sends, so a
/// sender that makes the homeserver wait or work more loses by exactly that; and the bot pays what a drain costs to
/// start and end (its first row rendered on the path, its open long-poll answering once) every turn, not once.
struct MatrixInterleavedComparison {
  let context: MatrixBenchContext
  let plainAccount: SynapseAccount
  let roomCounts: [Int]
  let events: Int
  let chunk: Int
  let rounds: Int
  let homeserverCPU = HomeserverCPU()

  /// The pause after each turn, so neither sender's clock runs while the homeserver still works for the other. After
  /// its last send the bot polls `/sync` up to twice more, 2 s apart (`MatrixTransport.busySyncSpacing`), then reads
  /// `/joined_rooms` and long-polls again: up to 4 s in all (a first try with 2.5 s found the bot's `/joined_rooms`
  /// inside five of twelve plain turns). Synapse also finishes each send's background work after it answered.
  static let settle: Duration = .milliseconds(4500)

  func measure() async throws {
    print(
      "dispatcher and plain sender in alternating chunks, rate limits off (\(events) events each per round, in "
        + "chunks of \(chunk), \(rounds) rounds):")
    var table: [String] = []
    for rooms in roomCounts {
      let perRoom = max(chunk / rooms, 1)
      let bot = try context.makeBot(database: "interleaved-\(rooms)", runsDispatcher: false)
      let (botTotal, plainTotal, ratios) = try await bot.run { bot in
        let botRooms = try await MatrixThroughputRun.rooms(
          rooms, named: "interleaved", round: 0, postsPerDrain: perRoom, bot: bot, context: context)
        let content = try await sampleContent(bot: bot, rooms: botRooms)
        let plain = MatrixPlainSender(
          context: context, account: plainAccount, rooms: rooms, events: perRoom * rooms,
          homeserverCPU: homeserverCPU, content: content)
        let prepared = try await plain.prepare()
        do {
          let totals = try await rounds(
            bot: bot, botRooms: botRooms, plain: plain, prepared: prepared, perRoom: perRoom)
          await plain.close(prepared)
          return totals
        } catch {
          await plain.close(prepared)
          throw error
        }
      }
      for line in [botTotal.workLine("bot", rooms: rooms), plainTotal.workLine("plain sender", rooms: rooms)] {
        if let line { print(line) }
      }
      let sorted = ratios.sorted()
      let pooled = botTotal.eventsPerSecond / plainTotal.eventsPerSecond
      table.append(
        "| \(MatrixBenchContext.label(rooms: rooms)) | \(rate(botTotal)) | \(rate(plainTotal)) | "
          + "\(String(format: "%.3f", pooled))× | \(String(format: "%.3f", MatrixBenchContext.median(ratios)))× "
          + "(\(String(format: "%.3f", sorted.first ?? 0))–\(String(format: "%.3f", sorted.last ?? 0))) | "
          + "\(cpu(botTotal)) / \(cpu(plainTotal)) |")
    }
    print("in alternating chunks, \(rounds) rounds:")
    print(
      "| rooms | bot | plain sender | bot ÷ plain, all rounds pooled | per round: median (range) | "
        + "homeserver CPU per event, bot / plain |")
    print("|---|---|---|---|---|---|")
    for line in table { print(line) }
  }

  /// One drain into the bot's rooms outside the count, so the plain sender can carry the content of a bot event.
  private func sampleContent(bot: MatrixBenchBot, rooms: [String]) async throws -> [UInt8] {
    let queued = try await MatrixThroughputRun.queue(1, rooms: rooms.count, bot: bot, context: context)
    _ = try await MatrixThroughputRun.drain(
      queued, rooms: rooms, bot: bot, homeserverCPU: homeserverCPU, alongside: {})
    return try await context.latestContent(in: rooms[0])
  }

  private func rounds(
    bot: MatrixBenchBot, botRooms: [String], plain: MatrixPlainSender, prepared: MatrixPlainSender.Prepared,
    perRoom: Int
  ) async throws -> (MatrixThroughputResult, MatrixThroughputResult, [Double]) {
    let rooms = botRooms.count
    let chunks = max(events / (perRoom * rooms), 1)
    var botTotal = MatrixThroughputResult.pooled([])
    var plainTotal = botTotal
    var ratios: [Double] = []
    var turn = 0
    for round in 1...rounds {
      var botRound = MatrixThroughputResult.pooled([])
      var plainRound = botRound
      for _ in 1...chunks {
        turn += 1
        // The posts are added and polled before either sender's clock starts.
        let queued = try await MatrixThroughputRun.queue(perRoom, rooms: rooms, bot: bot, context: context)
        let botFirst = turn % 2 == 1
        if !botFirst {
          plainRound.add(try await plain.send(perRoom * rooms, over: prepared, label: "\(rooms)-\(turn)"))
          try await Task.sleep(for: Self.settle)
        }
        botRound.add(
          try await MatrixThroughputRun.drain(
            queued, rooms: botRooms, bot: bot, homeserverCPU: homeserverCPU, alongside: {}
          ).0)
        try await Task.sleep(for: Self.settle)
        if botFirst {
          plainRound.add(try await plain.send(perRoom * rooms, over: prepared, label: "\(rooms)-\(turn)"))
          try await Task.sleep(for: Self.settle)
        }
      }
      let ratio = botRound.eventsPerSecond / plainRound.eventsPerSecond
      ratios.append(ratio)
      botTotal.add(botRound)
      plainTotal.add(plainRound)
      print("  \(MatrixBenchContext.label(rooms: rooms)), round \(round): bot \(botRound.summary)")
      print("  \(MatrixBenchContext.label(rooms: rooms)), round \(round): plain \(plainRound.summary)")
      print("  \(MatrixBenchContext.label(rooms: rooms)), round \(round): ratio \(String(format: "%.3f", ratio))×")
    }
    return (botTotal, plainTotal, ratios)
  }

  private func rate(_ result: MatrixThroughputResult) -> String {
    "\(String(format: "%.1f", result.eventsPerSecond)) events/s"
  }

  private func cpu(_ result: MatrixThroughputResult) -> String {
    guard let seconds = result.homeserverCPUSeconds else { return "n/a" }
    return "\(String(format: "%.1f", seconds * 1000 / Double(max(result.events, 1)))) ms"
  }
}
