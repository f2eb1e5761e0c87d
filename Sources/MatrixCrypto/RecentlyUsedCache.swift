/// A bounded map that forgets the entry used least recently once it holds more than `capacity`: for values the
/// crypto store keeps anyway and a read brings back (unpickled Megolm sessions), so months of key rotations in busy
/// rooms do not pile up in memory.
struct RecentlyUsedCache<Key: Hashable, Value> {
  let capacity: Int
  private var entries: [Key: (value: Value, used: UInt64)] = [:]
  private var clock: UInt64 = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
  }

  var count: Int { entries.count }

  /// The value for `key`, now the most recently used.
  mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key] = (entry.value, clock)
    return entry.value
  }

  /// Keeps `value` as the most recently used; beyond the capacity the least recently used entry goes. Finding it
  /// scans the entries, which only happens once the cache is full and a value it does not hold comes in.
  mutating func set(_ value: Value, for key: Key) {
    clock += 1
    entries[key] = (value, clock)
    if entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
      entries[oldest] = nil
    }
  }

  func contains(_ key: Key) -> Bool { entries[key] != nil }
}
