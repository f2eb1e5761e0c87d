/// One thing wrong with a transport's configuration, with the key it is about as the config writes it (`nick`,
/// `channels[1].key`, `encryption.trust`; empty for the connection as a whole), so the application can name the key
/// path in its own file (`transports[2].channels[1].key`).
package struct OptionProblem: Sendable, Hashable, CustomStringConvertible {
  package var key: String
  package var reason: String

  package init(_ key: String, _ reason: String) {
    self.key = key
    self.reason = reason
  }

  package var description: String { key.isEmpty ? reason : "\(key): \(reason)" }

  /// The top-level key (`channels` for `channels[1].key`), by which problems are put in the file's order.
  package var topKey: String { String(key.prefix { $0 != "." && $0 != "[" }) }

  /// The same problem one object further in: `trust` read inside `encryption` is `encryption.trust`.
  package func under(_ parent: String) -> OptionProblem {
    OptionProblem(key.isEmpty ? parent : "\(parent).\(key)", reason)
  }

  /// Problems in the order of `keys` (the order a config file is best read in), those about the whole last; those of
  /// one key keep the order they were found in.
  package static func inOrder(_ problems: [OptionProblem], keys: [String]) -> [OptionProblem] {
    let order = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let ranked = problems.enumerated().map { (rank: order[$1.topKey] ?? Int.max, position: $0, problem: $1) }
    return ranked.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.problem)
  }
}
