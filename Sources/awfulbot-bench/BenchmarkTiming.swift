import ArgumentParser

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a closure repeatedly and reports the fastest and the median run. Warm-up runs are discarded so caches,
/// lazily built tables and the allocator are settled before measuring.
struct BenchmarkTiming {
  var min: Duration
  var median: Duration

  static func measure(warmup: Int, iterations: Int, clock: BenchmarkClock, _ body: () throws -> Int) rethrows -> (
    BenchmarkTiming, Int
  ) {
    var sink = 0
    for _ in 0..<warmup { sink &+= try body() }
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<Swift.max(iterations, 1) {
      let start = clock.now()
      sink &+= try body()
      samples.append(clock.now() - start)
    }
    return (BenchmarkTiming(samples), sink)
  }

  /// The fastest and the median of `samples` (at least one).
  init(_ samples: [Duration]) {
    let sorted = samples.sorted()
    min = sorted[0]
    median = sorted[sorted.count / 2]
  }
}

/// Where a benchmark reads the time. The build machines are shared: a run that is preempted for another process's
/// time slice shows that slice in wall time, and with two cores and several builders a fair share of 2 ms runs was
/// preempted, enough to move the median. The thread's CPU time leaves the preemption out.
enum BenchmarkClock: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`). The timed closures never suspend, so they run on
  /// one thread from start to end.
  case cpu
  /// Monotonic wall-clock time.
  case wall

  func now() -> Duration {
    var spec = timespec()
    clock_gettime(self == .cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
  }
}

/// How the two sides of a comparison take turns (see `ScrapeBenchmark.measureInBlocks`).
enum BenchmarkOrder: String, ExpressibleByArgument, CaseIterable, Sendable {
  case blocks
  case interleaved
}

extension Duration {
  /// Milliseconds as a Double, for printing.
  var milliseconds: Double {
    let parts = components
    return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
  }
}
