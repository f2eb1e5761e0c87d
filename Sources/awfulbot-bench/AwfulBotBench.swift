import ArgumentParser

/// `awfulbot-bench`: release-build benchmarks. Each benchmark is a subcommand in its own file; add new ones to
/// `subcommands` below.
@main
struct AwfulBotBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "awfulbot-bench",
    abstract: "Benchmarks for AwfulBot (build with -c release).",
    subcommands: [
      ScrapeBenchmark.self,
      PollBenchmark.self,
      PollForumCommand.self,
      LatencyBenchmark.self,
      MatrixBenchmark.self,
      SoakBenchmark.self,
    ]
  )
}
