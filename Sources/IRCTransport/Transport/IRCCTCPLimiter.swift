/// How often the bot answers CTCP requests, so nobody can make it flood itself off the network: a small token
/// bucket per sender (keyed by host, so changing nick does not help) and one shared by everyone. A request that
/// finds either bucket empty is not answered. Time is passed in, so the buckets can be tested without waiting.
struct IRCCTCPLimiter: Sendable {
  struct Bucket: Sendable {
    var tokens: Double
    var updated: ContinuousClock.Instant
  }

  let perSourceBurst: Int
  let perSourceInterval: Duration
  let globalBurst: Int
  let globalInterval: Duration
  /// Senders remembered at most; buckets that have refilled are forgotten first.
  let maximumSources: Int
  private var global: Bucket?
  private(set) var sources: [String: Bucket] = [:]

  /// Defaults: four answers at once (one of each kind for someone trying them out), then one per 10 s per sender
  /// and one per 5 s in all, so requests from many senders take at most four lines at once and then 12 lines a
  /// minute of what the flood bucket lets the bot send.
  init(
    perSourceBurst: Int = 4, perSourceInterval: Duration = .seconds(10), globalBurst: Int = 4,
    globalInterval: Duration = .seconds(5), maximumSources: Int = 256
  ) {
    self.perSourceBurst = max(perSourceBurst, 1)
    self.perSourceInterval = perSourceInterval
    self.globalBurst = max(globalBurst, 1)
    self.globalInterval = globalInterval
    self.maximumSources = max(maximumSources, 1)
  }

  /// What to do with one request.
  enum Admission: Sendable, Equatable {
    case answer
    /// Over the limit, the first of a run of such requests: ignored, and worth one log line.
    case ignoreFirst
    /// Over the limit again: ignored quietly, so a flood logs one line.
    case ignore
  }

  /// Set once a request was ignored for the limit; cleared by the next answer.
  private(set) var overLimit = false

  /// `allow`, and whether an ignored request starts a run of them (logged once).
  mutating func admit(_ source: String, now: ContinuousClock.Instant) -> Admission {
    if allow(source, now: now) {
      overLimit = false
      return .answer
    }
    defer { overLimit = true }
    return overLimit ? .ignore : .ignoreFirst
  }

  /// Whether a request from `source` may be answered now; takes a token from both buckets when it may.
  mutating func allow(_ source: String, now: ContinuousClock.Instant) -> Bool {
    var shared = Self.refilled(global, burst: globalBurst, interval: globalInterval, now: now)
    var own = Self.refilled(sources[source], burst: perSourceBurst, interval: perSourceInterval, now: now)
    global = shared
    guard shared.tokens >= 1, own.tokens >= 1 else {
      if sources[source] != nil { sources[source] = own }
      return false
    }
    shared.tokens -= 1
    own.tokens -= 1
    global = shared
    remember(own, for: source, now: now)
    return true
  }

  private mutating func remember(_ bucket: Bucket, for source: String, now: ContinuousClock.Instant) {
    sources[source] = bucket
    guard sources.count > maximumSources else { return }
    // Forget senders whose bucket is full again: they lose nothing.
    sources = sources.filter { key, value in
      key == source
        || Self.refilled(value, burst: perSourceBurst, interval: perSourceInterval, now: now).tokens
          < Double(perSourceBurst)
    }
    // Still too many (a flood from many hosts): forget the longest-quiet ones.
    if sources.count > maximumSources {
      let oldest = sources.filter { $0.key != source }.sorted { $0.value.updated < $1.value.updated }
      for (key, _) in oldest.prefix(sources.count - maximumSources) { sources[key] = nil }
    }
  }

  private static func refilled(
    _ bucket: Bucket?, burst: Int, interval: Duration, now: ContinuousClock.Instant
  ) -> Bucket {
    guard var bucket else { return Bucket(tokens: Double(burst), updated: now) }
    let elapsed = now - bucket.updated
    if elapsed > .zero {
      let gained = interval > .zero ? elapsed / interval : Double(burst)
      bucket.tokens = min(Double(burst), bucket.tokens + gained)
      bucket.updated = now
    }
    return bucket
  }
}
