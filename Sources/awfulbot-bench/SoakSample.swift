import Foundation

/// One reading of the bot process from /proc: resident memory (all of it, and the anonymous part, which is the
/// heap and stacks without the mapped binary and libraries), open descriptors and threads.
struct SoakSample: Sendable {
  /// Seconds since the soak's activity started.
  var elapsed: Double
  var rssKiB: Int
  var anonKiB: Int
  var descriptors: Int
  var threads: Int
  /// Relays queued and not yet sent (`awfulbot_outbox_depth` summed over transports), nil when unread.
  var outboxDepth: Int?

  var rssMiB: Double { Double(rssKiB) / 1024 }
  var anonMiB: Double { Double(anonKiB) / 1024 }
  var minutes: Double { elapsed / 60 }

  static let csvHeader = "seconds,rss_kib,rss_anon_kib,descriptors,threads,outbox_depth"
  var csvRow: String {
    "\(String(format: "%.1f", elapsed)),\(rssKiB),\(anonKiB),\(descriptors),\(threads),\(outboxDepth.map(String.init) ?? "")"
  }

  /// Nil once the process is gone.
  static func read(pid: Int32, elapsed: Double, outboxDepth: Int?) -> SoakSample? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    var fields: [String: Int] = [:]
    for line in status.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      // "VmRSS:	   59420 kB", "Threads:	9".
      let number = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
      if let number { fields[String(parts[0])] = number }
    }
    let fm = FileManager.default
    guard let rss = fields["VmRSS"],
      let descriptors = try? fm.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    else { return nil }
    let threads = (try? fm.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? fields["Threads"] ?? 0
    return SoakSample(
      elapsed: elapsed, rssKiB: rss, anonKiB: fields["RssAnon"] ?? 0, descriptors: descriptors, threads: threads,
      outboxDepth: outboxDepth)
  }
}
