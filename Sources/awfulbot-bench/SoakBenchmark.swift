import ArgumentParser
import AsyncHTTPClient
import FakeForum
import Foundation
import Logging
import MatrixTransport

#if canImport(Glibc)
  import Glibc
#endif

/// `awfulbot-bench soak --minutes N` (issue 27): the release `awfulbot run` as a child process against
/// `awfulbot fake-forum`, with Matrix (a plain and an encrypted room), IRC and the console at once, under steady
/// forum activity: replies in bookmarked threads, new threads in a watched forum, announcements, private messages,
/// each with a unique marker. It samples the bot's RSS, open descriptors and threads from /proc, and at the end
/// counts every marker on every service. Run it as
/// `scripts/with-ircd scripts/with-synapse .build/release/awfulbot-bench soak --minutes 30` (the servers come from
/// the AWFULBOT_SYNAPSE_* and AWFULBOT_IRC_* variables those scripts export). Exits 1 when a marker is missing or
/// sent twice on a service, or when the last third's mean RSS is more than 5 % above the first third's.
struct SoakBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "soak",
    abstract: "The whole bot for N minutes against the emulator with Matrix, IRC and the console: RSS, fds, threads.")

  @Option(help: "Minutes of forum activity (the measured run).")
  var minutes: Double = 30

  @Option(help: "Seconds between two forum events, drawn between MIN,MAX.")
  var interval: String = "2,4"

  @Option(help: "Seconds between two samples of the bot process.")
  var sampleSeconds: Double = 10

  @Option(help: "Minutes left out of the figures at the start (default: 10 % of the run, at least 3).")
  var warmUp: Double?

  @Option(help: "Longest wait after the activity for the last deliveries, in seconds.")
  var drainSeconds: Double = 300

  @Option(help: "Seconds between two forum requests of the bot (forum.requestSpacingSeconds).")
  var spacing: Double = 0.5

  @Option(help: "Seed of the activity (which event, thread and author, and when).")
  var seed: UInt64 = 27

  @Option(help: "The awfulbot executable (default: the one next to this bench).")
  var binary: String?

  @Option(help: "Folder for the configuration, database, logs and samples (default: a new one in /tmp).")
  var workDirectory: String?

  func run() async throws {
    var logger = Logger(label: "awfulbot.bench.soak")
    logger.logLevel = .error
    let environment = try SoakEnvironment.current()
    let bounds = try intervalBounds()
    let warmUpMinutes = warmUp ?? max(3, minutes / 10)
    guard minutes > warmUpMinutes, sampleSeconds > 0 else {
      throw ValidationError("--minutes must exceed the warm-up (\(warmUpMinutes) min)")
    }
    let executable =
      binary
      ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("awfulbot").path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw SoakError.setup("no awfulbot at \(executable) (swift build -c release --product awfulbot)")
    }
    let directory = URL(
      fileURLWithPath: workDirectory ?? NSTemporaryDirectory() + "awfulbot-soak-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    SoakOutput.line(
      "soak: \(minutes) min, an event every \(bounds.lowerBound)–\(bounds.upperBound) s, work folder \(directory.path)")

    let run = try await SoakRun.start(
      environment: environment, executable: executable, directory: directory, spacing: spacing, logger: logger)
    let outcome: SoakOutcome
    do {
      outcome = try await run.measure(
        minutes: minutes, interval: bounds, sampleSeconds: sampleSeconds, drainSeconds: drainSeconds, seed: seed)
    } catch {
      await run.stop()
      throw error
    }
    let exitStatus = await run.stop()
    let report = SoakReport(samples: outcome.samples, warmUpMinutes: warmUpMinutes, minutes: minutes)
    var lines = [
      "", "## awfulbot-bench soak: \(String(format: "%.0f", minutes)) min, \(outcome.summary)", "",
    ]
    lines += report.table
    lines += ["", SoakDelivery.header] + outcome.deliveries.map(\.row)
    let delivered = outcome.deliveries.allSatisfy(\.passed)
    let cleanExit = exitStatus == 0
    lines += [
      "",
      "bot exit after SIGTERM: " + (exitStatus.map { "status \($0)" } ?? "killed after 30 s")
        + "; samples in \(directory.appendingPathComponent("samples.csv").path)",
      "verdict: " + (report.rssPassed ? "RSS ok" : "RSS goal MISSED") + ", "
        + (delivered ? "every event delivered once on every service" : "DELIVERY PROBLEMS")
        + (cleanExit ? "" : ", unclean exit"),
    ]
    let text = lines.joined(separator: "\n")
    SoakOutput.line(text)
    try? Data((text + "\n").utf8).write(to: directory.appendingPathComponent("report.md"))
    if !(report.rssPassed && delivered && cleanExit) { throw ExitCode(1) }
  }

  private func intervalBounds() throws -> ClosedRange<Double> {
    let parts = interval.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 2, parts[0] > 0, parts[0] <= parts[1] else {
      throw ValidationError("--interval wants MIN,MAX seconds like 2,4, not “\(interval)”")
    }
    return parts[0]...parts[1]
  }
}
