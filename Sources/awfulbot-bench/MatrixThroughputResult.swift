import ArgumentParser
import Foundation

/// One timed leg of the throughput comparison: how many events reached the homeserver in how long, and what that
/// cost the homeserver (CPU seconds of the Synapse process, when its pid is known).
struct MatrixThroughputResult: Sendable {
  var events: Int
  var seconds: Double
  /// CPU of this process during the leg (the bot, or the plain sender).
  var cpuSeconds: Double
  var homeserverCPUSeconds: Double?
  /// Synapse's counters over the leg, when its metrics are served (`HomeserverWork`).
  var homeserverWork: HomeserverWork?
  /// The rooms the events went to.
  var roomIDs: [String] = []

  var eventsPerSecond: Double { Double(events) / max(seconds, 1e-9) }

  /// Adds another leg's events, time and CPU to this one (the interleaved comparison pools its chunks).
  mutating func add(_ other: MatrixThroughputResult) {
    events += other.events
    seconds += other.seconds
    cpuSeconds += other.cpuSeconds
    homeserverCPUSeconds = homeserverCPUSeconds.flatMap { mine in other.homeserverCPUSeconds.map { mine + $0 } }
    homeserverWork = homeserverWork.flatMap { mine in
      other.homeserverWork.map { theirs in
        var sum = mine
        sum.add(theirs)
        return sum
      }
    }
  }

  /// Pools legs (an empty list gives an empty result).
  static func pooled(_ legs: [MatrixThroughputResult]) -> MatrixThroughputResult {
    var total = MatrixThroughputResult(
      events: 0, seconds: 0, cpuSeconds: 0, homeserverCPUSeconds: 0, homeserverWork: HomeserverWork())
    for leg in legs { total.add(leg) }
    return total
  }

  /// "  1 room, homeserver work for the bot, per 1,000 events: …", when Synapse's counters were read.
  func workLine(_ sender: String, rooms: Int) -> String? {
    homeserverWork.map {
      "  \(MatrixBenchContext.label(rooms: rooms)), homeserver work for the \(sender), \($0.perThousand(events: events))"
    }
  }

  /// "72 events/s (400 in 5.551 s, 1.21 s CPU, homeserver 10.3 ms CPU/event)".
  var summary: String {
    var text =
      "\(String(format: "%.0f", eventsPerSecond)) events/s (\(events) in \(String(format: "%.3f", seconds)) s, "
      + "\(String(format: "%.2f", cpuSeconds)) s CPU"
    if let homeserverCPUSeconds {
      text +=
        ", homeserver \(String(format: "%.1f", homeserverCPUSeconds * 1000 / Double(max(events, 1)))) ms CPU/event"
    }
    return text + ")"
  }
}

/// CPU time of the Synapse process, from /proc, when `scripts/with-synapse` exported its pid file. Lets the bench say
/// what each leg asked of the homeserver, not only how long it took.
struct HomeserverCPU: Sendable {
  let pidFile: String?

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    pidFile = environment["AWFULBOT_SYNAPSE_PIDFILE"]
  }

  /// User plus system seconds so far; nil when the pid or /proc cannot be read.
  func seconds() -> Double? {
    guard let pidFile,
      let pid = try? String(contentsOfFile: pidFile, encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines),
      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name; utime and stime are fields 14 and 15 of the whole line.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

/// `--plain-content`: what the plain sender's events carry.
enum MatrixPlainContent: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// The content of an event the bot sent in the first bot leg: both legs ask the same of the homeserver.
  case bot
  /// A notice whose whole content is the body "Plain post." (`minimalContent`): the cheapest event there is.
  case minimal
}

/// `--legs`: which measurements of `awfulbot-bench matrix` run (a throughput study need not wait for the others).
enum MatrixBenchLeg: String, CaseIterable, Sendable {
  case latency
  case throughput
  /// Bot and plain sender at the same time (`MatrixSideBySideComparison`); not part of the default set.
  case sideBySide = "side-by-side"
  /// Bot and plain sender one after the other in short alternating chunks (`MatrixInterleavedComparison`); not part
  /// of the default set.
  case interleaved
  case encrypted
  /// Relays with one picture each against the same posts with pictures left as links (`MatrixImagesComparison`).
  case images
}
