import Foundation

/// The soak's verdict on memory, descriptors and threads: the samples after warm-up cut in thirds, the last third's
/// mean RSS against the first's (issue 27's goal: within 5 %), and least-squares slopes.
struct SoakReport: Sendable {
  static let rssGoal = 1.05

  let samples: [SoakSample]
  let warmUpMinutes: Double
  let minutes: Double

  private var measured: [SoakSample] { samples.filter { $0.minutes >= warmUpMinutes } }
  private var third: Double { (minutes - warmUpMinutes) / 3 }
  private var first: [SoakSample] { measured.filter { $0.minutes < warmUpMinutes + third } }
  private var last: [SoakSample] { measured.filter { $0.minutes >= minutes - third } }

  var firstMeanMiB: Double { Self.mean(first.map(\.rssMiB)) }
  var lastMeanMiB: Double { Self.mean(last.map(\.rssMiB)) }
  var ratio: Double { firstMeanMiB > 0 ? lastMeanMiB / firstMeanMiB : .nan }
  var rssPassed: Bool { ratio <= Self.rssGoal }

  var table: [String] {
    let measured = measured
    let format = { (value: Double) in String(format: "%.2f", value) }
    let from = { (value: Double) in String(format: "%.0f", value) }
    let range = { (values: [Int]) in "\(values.min() ?? 0) / \(values.max() ?? 0)" }
    let depths = measured.compactMap(\.outboxDepth)
    return [
      "| measure (after \(from(warmUpMinutes)) min of warm-up, \(measured.count) samples) | value |", "|---|---|",
      "| RSS, mean of the first third (min \(from(warmUpMinutes))–\(from(warmUpMinutes + third))) | "
        + "\(format(firstMeanMiB)) MiB |",
      "| RSS, mean of the last third (min \(from(minutes - third))–\(from(minutes))) | \(format(lastMeanMiB)) MiB |",
      "| last / first | \(String(format: "%.3f", ratio)) (goal ≤ \(Self.rssGoal)) "
        + (rssPassed ? "ok" : "MISSED") + " |",
      "| RSS slope | \(String(format: "%+.4f", Self.slope(measured, \.rssMiB))) MiB/min |",
      "| anonymous RSS, first / last third | \(format(Self.mean(first.map(\.anonMiB)))) / "
        + "\(format(Self.mean(last.map(\.anonMiB)))) MiB |",
      "| anonymous RSS slope | \(String(format: "%+.4f", Self.slope(measured, \.anonMiB))) MiB/min |",
      "| RSS min / max | \(format(measured.map(\.rssMiB).min() ?? 0)) / \(format(measured.map(\.rssMiB).max() ?? 0)) MiB |",
      "| descriptors min / max | \(range(measured.map(\.descriptors))) (slope "
        + "\(String(format: "%+.3f", Self.slope(measured) { Double($0.descriptors) }))/min) |",
      "| threads min / max | \(range(measured.map(\.threads))) |",
      "| outbox depth max | \(depths.max().map(String.init) ?? "not read") |",
    ]
  }

  static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
  }

  /// Least-squares slope of `value` against minutes.
  static func slope(_ samples: [SoakSample], _ value: (SoakSample) -> Double) -> Double {
    guard samples.count > 1 else { return .nan }
    let xs = samples.map(\.minutes)
    let ys = samples.map(value)
    let mx = mean(xs)
    let my = mean(ys)
    let covariance = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
    let variance = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
    return variance > 0 ? covariance / variance : .nan
  }
}
