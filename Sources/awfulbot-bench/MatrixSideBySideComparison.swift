import Foundation

/// The bot and the plain sender at the same time, each into rooms of its own, for `rounds` rounds per room count.
/// Run one after the other (`MatrixThroughputComparison`), each leg meets the homeserver in its own state, and
/// Synapse's CPU per event moves ±10 % from leg to leg whoever sends; side by side, both meet the same state and share
/// it. Each sender's rate is counted from the homeserver's own clock (`origin_server_ts` of every event) over the
/// stretch when both were sending, so neither gains from running alone at the end.
struct MatrixSideBySideComparison {
  let context: MatrixBenchContext
  let plainAccount: SynapseAccount
  let roomCounts: [Int]
  let events: Int
  let rounds: Int
  let homeserverCPU = HomeserverCPU()

  func measure() async throws {
    print(
      "dispatcher and plain sender side by side, rate limits off (\(events) events each, \(rounds) rounds; rates "
        + "from the homeserver's timestamps while both were sending):")
    let content = try await botContent()
    print("  plain sender content (\(content.count) bytes, as the bot's)")
    var table: [String] = []
    for rooms in roomCounts {
      var ratios: [Double] = []
      var pooled = (bot: 0, plain: 0)
      for round in 1...rounds {
        let plain = MatrixPlainSender(
          context: context, account: plainAccount, rooms: rooms, events: events, homeserverCPU: homeserverCPU,
          content: content)
        let prepared = try await plain.prepare()
        let botResult: MatrixThroughputResult
        let plainResult: MatrixThroughputResult
        do {
          (botResult, plainResult) = try await MatrixThroughputRun(
            context: context, rooms: rooms, events: events, homeserverCPU: homeserverCPU,
            round: 100 + rooms * 100 + round
          ).measure(alongside: { try await plain.send(prepared, readsHomeserverWork: false) })
        } catch {
          // The plain sender shuts its connections down itself once it ran; not when the bot's leg failed first.
          for client in prepared.clients { try? await client.shutdown() }
          throw error
        }
        let botStamps = try await stamps(botResult.roomIDs)
        let plainStamps = try await stamps(plainResult.roomIDs)
        guard let start = [botStamps.first, plainStamps.first].compactMap({ $0 }).max(),
          let end = [botStamps.last, plainStamps.last].compactMap({ $0 }).min(), end > start
        else { throw MatrixBenchmarkError.failed("the two senders did not overlap (\(rooms) room(s), round \(round))") }
        let bot = botStamps.count { $0 >= start && $0 <= end }
        let plainCount = plainStamps.count { $0 >= start && $0 <= end }
        let seconds = (end - start) / 1000
        let ratio = Double(bot) / Double(max(plainCount, 1))
        ratios.append(ratio)
        pooled.bot += bot
        pooled.plain += plainCount
        print(
          "  \(label(rooms)), round \(round): both sending for \(String(format: "%.1f", seconds)) s: bot \(bot) "
            + "events (\(String(format: "%.1f", Double(bot) / seconds))/s), plain \(plainCount) "
            + "(\(String(format: "%.1f", Double(plainCount) / seconds))/s), ratio \(String(format: "%.3f", ratio))×")
      }
      let sorted = ratios.sorted()
      table.append(
        "| \(label(rooms)) | \(String(format: "%.3f", MatrixBenchContext.median(ratios)))× (\(String(format: "%.3f", sorted.first ?? 0))–"
          + "\(String(format: "%.3f", sorted.last ?? 0))) | "
          + "\(String(format: "%.3f", Double(pooled.bot) / Double(max(pooled.plain, 1))))× |")
    }
    print("side by side over \(rounds) rounds:")
    print("| rooms | bot ÷ plain per round: median (range) | all rounds pooled |")
    print("|---|---|---|")
    for line in table { print(line) }
  }

  /// What the plain sender's events carry: the content of one of the bot's own, from a one-event bot leg run first
  /// (so both ask the same of the homeserver, as in `MatrixThroughputComparison`).
  private func botContent() async throws -> [UInt8] {
    let sample = try await MatrixThroughputRun(
      context: context, rooms: 1, events: 1, homeserverCPU: homeserverCPU, round: 100
    ).measure()
    guard let room = sample.roomIDs.first else { throw MatrixBenchmarkError.failed("the sample leg made no room") }
    return try await context.latestContent(in: room)
  }

  private func stamps(_ rooms: [String]) async throws -> [Double] {
    var all: [Double] = []
    for room in rooms {
      all += try await context.owner.client.messageTimestamps(token: context.owner.account.accessToken, roomID: room)
    }
    return all.sorted()
  }

  private func label(_ rooms: Int) -> String { MatrixBenchContext.label(rooms: rooms) }
}
