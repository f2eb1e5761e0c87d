/// What one chat service received of the soak's markers: each expected marker delivered, missing or delivered more
/// than once (in more than one message).
struct SoakDelivery: Sendable {
  let service: String
  let expected: Int
  let delivered: Int
  let missing: [Int]
  let duplicated: [Int]
  /// Something else wrong on this service (clear text in the encrypted room, undecryptable events), or empty.
  var notes: [String] = []

  /// `seen`: marker → the number of messages that carried it.
  init(service: String, expected: Set<Int>, seen: [Int: Int], notes: [String] = []) {
    self.service = service
    self.expected = expected.count
    delivered = expected.filter { seen[$0] != nil }.count
    missing = expected.filter { seen[$0] == nil }.sorted()
    duplicated = seen.filter { $0.value > 1 }.keys.sorted()
    self.notes = notes
  }

  /// Counts each message's markers once.
  static func seen(inMessages messages: [String]) -> [Int: Int] {
    var seen: [Int: Int] = [:]
    for message in messages {
      for marker in SoakMarkers.numbers(in: message) { seen[marker, default: 0] += 1 }
    }
    return seen
  }

  var passed: Bool { missing.isEmpty && duplicated.isEmpty && notes.isEmpty }

  var row: String {
    let sample = missing.prefix(8).map { SoakMarkers.marker($0) }.joined(separator: " ")
    let problems =
      (missing.isEmpty ? [] : ["missing: \(sample)\(missing.count > 8 ? " …" : "")"])
      + (duplicated.isEmpty ? [] : ["\(duplicated.count) sent twice"]) + notes
    return "| \(service) | \(expected) | \(delivered) | \(missing.count) | \(duplicated.count) | "
      + (problems.isEmpty ? "ok" : problems.joined(separator: "; ")) + " |"
  }

  static let header = "| service | expected | delivered | missing | duplicated | notes |\n|---|---:|---:|---:|---:|---|"
}
