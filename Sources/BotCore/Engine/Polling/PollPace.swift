import BotStore
import Foundation

/// How long the poller waits before reading a source again, and why: what `status` shows.
///
/// Sources read from the top of a newest-first list (the bookmarks, a watched forum) are paced between a floor and a
/// ceiling: a read that found something brings the next one to the floor; quiet reads wait twice the floor while
/// something moved in the last `recentWindow` (5 minutes), and then double the wait up to the ceiling. Posts come in
/// spells, so a spell's next post waits at most twice the floor, and a quiet account costs a read a ceiling (issue
/// 35: doubling straight to the ceiling left a post made after 30 quiet seconds waiting 40 s and more). Other
/// sources, and any whose floor is not below its ceiling, keep one interval. The pace is kept in the store
/// (table `pollPace`), so `awfulbot status` in another process shows it too.
package struct PollPace: Sendable, Hashable, Codable {
  package enum Reason: String, Sendable, Hashable, Codable {
    /// The last read found something: the next comes after the floor.
    case activity
    /// Nothing moved at the last reads, but something did within `recentWindow`: twice the floor.
    case recent
    /// Nothing moved within `recentWindow`: the wait doubles towards the ceiling.
    case quiet
    /// Quiet long enough to wait the ceiling.
    case ceiling
    /// The list was not newest-first, so a read cannot stop early: reads keep to the ceiling.
    case unordered
    /// One interval: a source that is not paced, or floor and ceiling alike.
    case fixed
  }

  /// The wait before the next read, before jitter.
  package var seconds: Double
  package var reason: Reason
  /// Reads in a row that found nothing.
  package var quietReads: Int
  /// The longest wait, for the words in `status`.
  package var ceilingSeconds: Double
  /// The waits since the last read that found something, summed: how long the source has been quiet (nil in a pace
  /// stored before it was kept, read as quiet for long).
  package var quietSeconds: Double?

  /// How long after something moved the wait stays at twice the floor.
  static let recentWindow: Double = 5 * 60

  package init(
    seconds: Double, reason: Reason, quietReads: Int = 0, ceilingSeconds: Double, quietSeconds: Double? = 0
  ) {
    self.seconds = seconds
    self.reason = reason
    self.quietReads = quietReads
    self.ceilingSeconds = ceilingSeconds
    self.quietSeconds = quietSeconds
  }

  package var interval: Duration { .seconds(seconds) }

  /// The pace after a successful read that `found` something (or not), of a list that was or was not in order.
  static func after(
    _ previous: PollPace?, found: Bool, unordered: Bool, floor: Duration, ceiling: Duration
  ) -> PollPace {
    let floor = min(floor.timeInterval, ceiling.timeInterval)
    let ceiling = ceiling.timeInterval
    guard floor < ceiling else { return PollPace(seconds: ceiling, reason: .fixed, ceilingSeconds: ceiling) }
    if unordered {
      return PollPace(seconds: ceiling, reason: .unordered, ceilingSeconds: ceiling, quietSeconds: nil)
    }
    if found { return PollPace(seconds: floor, reason: .activity, ceilingSeconds: ceiling) }
    let quietReads = (previous?.quietReads ?? 0) + 1
    // The wait just ended counts towards the quiet; a restart starts from the floor, as after activity.
    let quiet = (previous.map { $0.quietSeconds ?? recentWindow } ?? 0) + (previous?.seconds ?? floor)
    if quiet < recentWindow && 2 * floor < ceiling {
      return PollPace(
        seconds: 2 * floor, reason: .recent, quietReads: quietReads, ceilingSeconds: ceiling, quietSeconds: quiet)
    }
    // From the floor after an unordered spell or a fixed interval; doubling a wait already at the ceiling stays
    // there.
    let base = previous.map { $0.reason == .unordered || $0.reason == .fixed ? floor : $0.seconds } ?? floor
    let seconds = min(max(base, floor) * 2, ceiling)
    return PollPace(
      seconds: seconds, reason: seconds >= ceiling ? .ceiling : .quiet, quietReads: quietReads,
      ceilingSeconds: ceiling, quietSeconds: quiet)
  }

  /// The pace in words for `status`: "every 10 s: threads moved at the last check".
  package func explanation(for source: PollSource) -> String {
    let every = "every \(Self.describe(seconds))"
    let reads = source == .bookmarks ? "check" : "read"
    switch reason {
    case .fixed:
      return every
    case .activity:
      return every + (source == .bookmarks ? ": threads moved at the last check" : ": something new at the last read")
    case .recent:
      return every + ": nothing new in \(Self.count(quietReads, reads)); after "
        + Self.describe(Self.recentWindow) + " without news the wait doubles up to " + Self.describe(ceilingSeconds)
    case .quiet:
      return every + ": nothing new in \(Self.count(quietReads, reads)); the wait doubles up to "
        + Self.describe(ceilingSeconds)
    case .ceiling:
      return every + ": nothing new in \(Self.count(quietReads, reads)), the longest wait"
    case .unordered:
      return every
        + (source == .bookmarks
          ? ": the list is not newest-first, so each check reads all of it"
          : ": the list is not newest-first, so only its first page is read")
    }
  }

  /// "10 s", "1 min 30 s", "30 min", "1 h".
  static func describe(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole) s" }
    if whole < 3600 { return "\(whole / 60) min" + (whole % 60 == 0 ? "" : " \(whole % 60) s") }
    return "\(whole / 3600) h" + (whole % 3600 == 0 ? "" : " \(whole % 3600 / 60) min")
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  // MARK: Store

  /// The pace a stored row holds; nil for a reason this build does not know (the source starts afresh).
  package init?(record: PollPaceRecord) {
    guard let reason = Reason(rawValue: record.reason) else { return nil }
    self.init(
      seconds: record.seconds, reason: reason, quietReads: record.quietReads, ceilingSeconds: record.ceilingSeconds,
      quietSeconds: record.quietSeconds)
  }

  static func load(in tx: StoreTransaction, source: PollSource) throws -> PollPace? {
    try tx.pollPace(source: source.name).flatMap(PollPace.init(record:))
  }

  func save(in tx: StoreTransaction, source: PollSource, now: Date) throws {
    try tx.save(
      PollPaceRecord(
        source: source.name, seconds: seconds, reason: reason.rawValue, quietReads: quietReads,
        ceilingSeconds: ceilingSeconds, quietSeconds: quietSeconds, updatedAt: now))
  }
}
