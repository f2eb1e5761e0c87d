import Foundation

/// User ids the client looked up by name (`member.php?action=getinfo&username=`), kept a few minutes so that reading
/// several pages of one rap sheet by name asks for the profile once. Names are matched regardless of case, as the
/// forum matches them; a user renamed meanwhile is found again once the entry expires. Unknown names are not kept.
struct UserIDCache {
  /// How long a looked-up id is used without asking again.
  static let lifetime: Duration = .seconds(600)
  /// The most names kept; the oldest goes first.
  static let capacity = 64

  private var entries: [String: (id: String, storedAt: ContinuousClock.Instant)] = [:]

  func id(named name: String, now: ContinuousClock.Instant = .now) -> String? {
    guard let entry = entries[Self.key(name)], now - entry.storedAt < Self.lifetime else { return nil }
    return entry.id
  }

  mutating func store(_ id: String, named name: String, now: ContinuousClock.Instant = .now) {
    entries = entries.filter { now - $0.value.storedAt < Self.lifetime }
    if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.storedAt < $1.value.storedAt }) {
      entries[oldest.key] = nil
    }
    entries[Self.key(name)] = (id, now)
  }

  private static func key(_ name: String) -> String { name.lowercased() }
}
