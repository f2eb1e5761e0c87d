import Synchronization

/// Pictures that could not be fetched, by address, for an hour: a post that links a host which never answers, or
/// answers slowly on purpose, costs one deadline and one of the hour's downloads the first time, not at every relay
/// that shows it again (quotes, edits, other rooms). Bounded: the oldest is forgotten first.
final class PictureFailureMemory: Sendable {
  static let lifetime = Duration.seconds(3600)
  static let capacity = 1_000

  private struct Entry {
    var failure: ImageFetcher.Failure
    var at: ContinuousClock.Instant
  }

  private let entries = Mutex<[String: Entry]>([:])

  /// The failure remembered for `url` within the hour.
  func failure(for url: String, now: ContinuousClock.Instant = .now) -> ImageFetcher.Failure? {
    entries.withLock { entries in
      guard let entry = entries[url] else { return nil }
      guard now - entry.at < Self.lifetime else {
        entries[url] = nil
        return nil
      }
      return entry.failure
    }
  }

  func remember(_ failure: ImageFetcher.Failure, for url: String, now: ContinuousClock.Instant = .now) {
    guard failure.isRemembered else { return }
    entries.withLock { entries in
      entries[url] = Entry(failure: failure, at: now)
      guard entries.count > Self.capacity else { return }
      entries = entries.filter { now - $0.value.at < Self.lifetime }
      while entries.count > Self.capacity, let oldest = entries.min(by: { $0.value.at < $1.value.at })?.key {
        entries[oldest] = nil
      }
    }
  }
}
