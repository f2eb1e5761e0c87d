/// Runs a closure repeatedly and reports the fastest and the median run. Warm-up runs are discarded so caches,
/// lazily built tables and the allocator are settled before measuring.
struct BenchmarkTiming {
  var min: Duration
  var median: Duration

  static func measure(warmup: Int, iterations: Int, _ body: () throws -> Int) rethrows -> (BenchmarkTiming, Int) {
    var sink = 0
    for _ in 0..<warmup { sink &+= try body() }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<Swift.max(iterations, 1) {
      let start = clock.now
      sink &+= try body()
      samples.append(clock.now - start)
    }
    samples.sort()
    return (BenchmarkTiming(min: samples[0], median: samples[samples.count / 2]), sink)
  }
}

extension Duration {
  /// Milliseconds as a Double, for printing.
  var milliseconds: Double {
    let parts = components
    return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
  }
}
