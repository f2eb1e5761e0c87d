/// The last few pictures downloaded, kept for minutes by where they came from (an address, or a forum attachment's
/// number). A post relayed to a plain and to an encrypted room needs two uploads (one of them encrypted) but only one
/// download: the forum, or the picture's host, is asked once. Few and brief, because each may hold `maxBytes`.
struct MatrixRecentDownloads {
  static let capacity = 4
  static let lifetime: Duration = .seconds(600)

  private var entries: [(source: String, at: ContinuousClock.Instant, fetched: ImageFetcher.Fetched)] = []

  /// The bytes downloaded from `source` within the lifetime, if still kept.
  mutating func fetched(from source: String, now: ContinuousClock.Instant) -> ImageFetcher.Fetched? {
    entries.removeAll { now - $0.at > Self.lifetime }
    return entries.last { $0.source == source }?.fetched
  }

  /// Keeps a download, forgetting the oldest beyond the capacity.
  mutating func keep(_ fetched: ImageFetcher.Fetched, from source: String, now: ContinuousClock.Instant) {
    entries.removeAll { $0.source == source || now - $0.at > Self.lifetime }
    entries.append((source, now, fetched))
    if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
  }
}
