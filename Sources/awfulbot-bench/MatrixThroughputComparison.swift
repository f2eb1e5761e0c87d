import Foundation
import MatrixModel

/// The bot's dispatcher against the plain sender (`MatrixPlainSender`) on the same homeserver in the same run:
/// for each room count, `rounds` rounds of one bot leg and one plain leg, the order swapped every round so a
/// homeserver that warms up or slows down over the run favours neither. Prints each round and the medians.
struct MatrixThroughputComparison {
  let context: MatrixBenchContext
  let plainAccount: SynapseAccount
  let roomCounts: [Int]
  let events: Int
  let rounds: Int
  /// What the plain sender's events carry (`--plain-content`).
  let plainContent: MatrixPlainContent
  let homeserverCPU = HomeserverCPU()

  func measure() async throws {
    print(
      "dispatcher throughput vs a plain sender, rate limits off (\(events) events per leg, \(rounds) rounds, "
        + "order alternating; plain content: \(plainContent.rawValue)):")
    var content: [UInt8]? = plainContent == .minimal ? Self.minimalContent : nil
    var table: [String] = []
    for rooms in roomCounts {
      var bot: [MatrixThroughputResult] = []
      var plain: [MatrixThroughputResult] = []
      for round in 1...rounds {
        let botFirst = round % 2 == 1
        if botFirst { bot.append(try await botLeg(rooms: rooms, round: round)) }
        if content == nil, let room = bot.last?.roomIDs.first {
          content = try await context.latestContent(in: room)
          print(
            "  plain sender content (\(content?.count ?? 0) bytes, as the bot's): \(String(decoding: content ?? [], as: UTF8.self))"
          )
        }
        plain.append(
          try await MatrixPlainSender(
            context: context, account: plainAccount, rooms: rooms, events: events, homeserverCPU: homeserverCPU,
            content: content ?? Self.minimalContent
          ).measure())
        if !botFirst { bot.append(try await botLeg(rooms: rooms, round: round)) }
        let ratio = bot[round - 1].eventsPerSecond / plain[round - 1].eventsPerSecond
        print("  \(label(rooms)), round \(round): bot \(bot[round - 1].summary)")
        print("  \(label(rooms)), round \(round): plain \(plain[round - 1].summary)")
        print("  \(label(rooms)), round \(round): ratio \(String(format: "%.2f", ratio))×")
      }
      for line in [
        MatrixThroughputResult.pooled(bot).workLine("bot", rooms: rooms),
        MatrixThroughputResult.pooled(plain).workLine("plain sender", rooms: rooms),
      ] {
        if let line { print(line) }
      }
      let ratios = zip(bot, plain).map { $0.eventsPerSecond / $1.eventsPerSecond }.sorted()
      table.append(
        "| \(label(rooms)) | \(rate(median(bot))) | \(rate(median(plain))) | "
          + "\(String(format: "%.2f", median(ratios)))× (\(String(format: "%.2f", ratios.first ?? 0))–"
          + "\(String(format: "%.2f", ratios.last ?? 0))) |")
    }
    print("medians over \(rounds) rounds:")
    print("| rooms | bot | plain sender | bot ÷ plain per round: median (range) |")
    print("|---|---|---|---|")
    for line in table { print(line) }
  }

  static let minimalContent = Array(#"{"msgtype":"\#(MatrixMessageType.notice)","body":"Plain post."}"#.utf8)

  private func botLeg(rooms: Int, round: Int) async throws -> MatrixThroughputResult {
    try await MatrixThroughputRun(
      context: context, rooms: rooms, events: events, homeserverCPU: homeserverCPU, round: round
    ).measure()
  }

  private func label(_ rooms: Int) -> String { MatrixBenchContext.label(rooms: rooms) }

  private func median(_ results: [MatrixThroughputResult]) -> Double {
    MatrixBenchContext.median(results.map(\.eventsPerSecond))
  }

  private func median(_ values: [Double]) -> Double { MatrixBenchContext.median(values) }

  private func rate(_ value: Double) -> String { "\(String(format: "%.0f", value)) events/s" }
}
