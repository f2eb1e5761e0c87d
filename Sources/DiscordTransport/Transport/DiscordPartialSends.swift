/// The parts of a long message that went out before a later part failed, by idempotency key, so the dispatcher's
/// retry sends only the rest (in this process: after a restart they are not known and go out again, see
/// `DiscordTransport`). Kept only for the same rendered parts, and at most `limit` messages at once.
struct DiscordPartialSends: Sendable, Hashable {
  struct Entry: Sendable, Hashable {
    var parts: [String]
    var sentIDs: [String]
  }

  static let limit = 64
  private(set) var entries: [String: Entry] = [:]

  /// The ids already sent for `key` when its parts are `parts`; empty otherwise.
  func sent(key: String, parts: [String]) -> [String] {
    guard let entry = entries[key], entry.parts == parts else { return [] }
    return entry.sentIDs
  }

  mutating func record(key: String, parts: [String], sentIDs: [String]) {
    if entries[key] == nil, entries.count >= Self.limit { entries.removeAll() }
    entries[key] = Entry(parts: parts, sentIDs: sentIDs)
  }

  mutating func finish(key: String) { entries[key] = nil }
}
