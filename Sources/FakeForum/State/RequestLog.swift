/// The forum requests received, oldest first, so tests can assert what a client asked for.
struct RequestLog {
  /// Oldest entries are dropped past this many, so long benchmarks do not grow the log without bound.
  let limit: Int
  private(set) var entries: [LoggedRequest] = []

  init(limit: Int) { self.limit = limit }

  mutating func append(_ request: LoggedRequest) {
    entries.append(request)
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
  }

  mutating func removeAll() { entries.removeAll() }
}
