/// The one grammar of a room's mode, for the `mode` command and the config's `rooms[].mode` alike:
/// `each`, `summary [K]` (K from 1 to 1000), `digest hourly` (or a bare `digest`), `digest daily HH:MM`.
extension RelayMode {
  /// What is wrong with a mode as written, as the sentence a user reads.
  package enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not one of the forms at all.
    case unknown
    case threshold
    case time

    package var description: String {
      switch self {
      case .unknown: "The mode is each, summary [K], digest hourly or digest daily HH:MM."
      case .threshold: "K is a number of posts from 1 to 1000."
      case .time: "The time looks like 08:30."
      }
    }
  }

  /// Reads the mode from its words (any case).
  package static func parse(_ words: [String]) -> Result<RelayMode, ParseError> {
    let words = words.map { $0.lowercased() }
    switch (words.first, words.count) {
    case ("each", 1):
      return .success(.each)
    case ("summary", 1):
      return .success(.summary(threshold: defaultSummaryThreshold))
    case ("summary", 2):
      guard let threshold = Int(words[1]), (1...1000).contains(threshold) else { return .failure(.threshold) }
      return .success(.summary(threshold: threshold))
    case ("digest", 1):
      return .success(.digest(.hourly))
    case ("digest", 2) where words[1] == "hourly":
      return .success(.digest(.hourly))
    case ("digest", 3) where words[1] == "daily":
      guard let time = TimeOfDay(parsing: words[2]) else { return .failure(.time) }
      return .success(.digest(.daily(time)))
    default:
      return .failure(.unknown)
    }
  }

  /// The mode as it is written in a command or the config (`summary 5`, `digest daily 08:30`): `parse` reads it back.
  package var writtenForm: String {
    switch self {
    case .each: "each"
    case .summary(let threshold): "summary \(threshold)"
    case .digest(.hourly): "digest hourly"
    case .digest(.daily(let time)): "digest daily \(time)"
    }
  }

  /// Reads a mode written on one line (`"summary 5"`).
  package static func parse(_ text: String) -> Result<RelayMode, ParseError> {
    parse(text.split(separator: " ").map(String.init))
  }
}
