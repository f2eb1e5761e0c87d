import Foundation

/// The bot into end-to-end encrypted rooms against the bot into plain rooms, in the same run: for each room count,
/// `rounds` rounds of one plain and one encrypted leg, the order swapped every round. The owner has no encrypting
/// device here, so the key share before the first event is one `/keys/query` and no Olm message; what is measured
/// is the cost per event (Megolm encryption, the encrypted event stored for resends, the larger body).
struct MatrixEncryptedComparison {
  let context: MatrixBenchContext
  let roomCounts: [Int]
  let events: Int
  let rounds: Int
  let homeserverCPU = HomeserverCPU()

  func measure() async throws {
    print("end-to-end encrypted rooms vs plain rooms, the bot in both (\(events) events per leg, \(rounds) rounds):")
    var table: [String] = []
    for rooms in roomCounts {
      var ratios: [Double] = []
      for round in 1...rounds {
        var legs: [Bool: MatrixThroughputResult] = [:]
        for encrypted in round % 2 == 1 ? [false, true] : [true, false] {
          legs[encrypted] = try await MatrixThroughputRun(
            context: context, rooms: rooms, events: events, homeserverCPU: homeserverCPU, round: 100 + round,
            encrypted: encrypted
          ).measure()
        }
        guard let plain = legs[false], let encrypted = legs[true] else { continue }
        let ratio = encrypted.eventsPerSecond / plain.eventsPerSecond
        ratios.append(ratio)
        let label = rooms == 1 ? "1 room" : "\(rooms) rooms"
        print("  \(label), round \(round): plain \(plain.summary)")
        print("  \(label), round \(round): encrypted \(encrypted.summary)")
        print("  \(label), round \(round): encrypted ÷ plain \(String(format: "%.2f", ratio))×")
      }
      ratios.sort()
      table.append(
        "| \(rooms) | \(String(format: "%.2f", ratios.isEmpty ? 0 : ratios[ratios.count / 2]))× "
          + "(\(String(format: "%.2f", ratios.first ?? 0))–\(String(format: "%.2f", ratios.last ?? 0))) |")
    }
    print("| rooms | encrypted ÷ plain per round: median (range) |")
    print("|---|---|")
    for line in table { print(line) }
  }
}
