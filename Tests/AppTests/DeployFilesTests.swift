import AwfulBotTestKit
import BotStore
import ForumModel
import Foundation
import Testing

@testable import AwfulBotApp
@testable import BotCore
@testable import ForumsClient

/// The monitoring files under deploy/ (Grafana dashboard and provisioning, Prometheus, compose) and the Dockerfile
/// agree with the code and the repository: the dashboard asks only for series /metrics serves, the image builds from
/// a fresh clone the way scripts/release-check builds, and compose mounts files that are there.
@Suite("deploy: dashboard, Dockerfile, compose")
struct DeployFilesTests {
  static let root = Repository.root
  static let deploy = root.appendingPathComponent("deploy")

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  // MARK: - Dashboard

  @Test("every metric a dashboard query names is a series the bot's /metrics serves")
  func dashboardMetricsExist() throws {
    let expressions = try Self.dashboardExpressions()
    #expect(expressions.count >= 10, "the dashboard's queries: \(expressions)")
    let exported = Self.exportedSeries()
    var used = Set<String>()
    for expression in expressions {
      let names = Self.metricNames(in: expression)
      #expect(!names.isEmpty, "no metric in \(expression)")
      let unknown = names.subtracting(exported)
      #expect(unknown.isEmpty, "\(unknown.sorted()) in \(expression) are not on /metrics: \(exported.sorted())")
      used.formUnion(names)
    }
    // The operator's main questions each have a panel.
    for name in [
      "awfulbot_deliveries_total", "awfulbot_outbox_room_depth", "awfulbot_poll_duration_seconds_bucket",
      "awfulbot_forum_http_requests_total", "awfulbot_forum_wall", "awfulbot_transport_connected",
    ] {
      #expect(used.contains(name), "no panel reads \(name)")
    }
  }

  @Test("every dashboard query goes to the provisioned Prometheus datasource")
  func dashboardDatasource() throws {
    let provisioned = try Self.read("deploy/grafana/provisioning/datasources/prometheus.yml")
    #expect(provisioned.contains("uid: prometheus\n"))
    #expect(provisioned.contains("url: http://prometheus:9090\n"))
    let dashboard = try Self.dashboard()
    #expect(dashboard["schemaVersion"] as? Int == 39)
    var uids: [String] = []
    Self.walk(dashboard) { object in
      if let source = object["datasource"] as? [String: Any], source["type"] as? String == "prometheus" {
        uids.append(source["uid"] as? String ?? "")
      }
    }
    #expect(!uids.isEmpty)
    #expect(Set(uids) == ["prometheus"])
  }

  @Test("metric names are read out of PromQL, not its functions, labels, strings or durations")
  func promQLNames() {
    #expect(
      Self.metricNames(
        in: #"histogram_quantile(0.95, sum by (source, le) (rate(a_bucket{outcome!="ok",x=~"b.*"}[$__rate_interval])))"#
          + " / ignoring (kind) group_left b:c offset 5m or on() vector(1e-3) and count(d == bool 0) > 60")
        == ["a_bucket", "b:c", "d"])
    #expect(Self.metricNames(in: #"sum without (instance) (increase(x_total[1h:5m]))"#) == ["x_total"])
  }

  /// The `expr` of every query in the dashboard, rows and nested panels included.
  static func dashboardExpressions() throws -> [String] {
    var expressions: [String] = []
    let json = try dashboard()
    walk(json) { object in
      if let expression = object["expr"] as? String { expressions.append(expression) }
    }
    return expressions
  }

  static func dashboard() throws -> [String: Any] {
    let data = try Data(contentsOf: deploy.appendingPathComponent("grafana/dashboards/awfulbot.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func walk(_ value: Any, _ visit: ([String: Any]) -> Void) {
    if let object = value as? [String: Any] {
      visit(object)
      for child in object.values { walk(child, visit) }
    } else if let array = value as? [Any] {
      for child in array { walk(child, visit) }
    }
  }

  /// The sample names the app's registry renders on /metrics (histograms as `_bucket`, `_sum`, `_count`; counters
  /// under their label, which carries its own `_total`), after every function that records a metric has run once:
  /// a renamed metric shows here under its new name only.
  ///
  /// The registry is the process's, shared with other tests running beside this one. A series with a label of its
  /// own (transport, source) gets a value of this test's; counters shared with other tests only grow (tests compare
  /// them with >=); gauges shared with other tests are written back with the value they have.
  static func exportedSeries() -> Set<String> {
    AppMetrics.bootstrap()
    let tag = "deploy-files-\(UUID().uuidString.prefix(8).lowercased())"
    EngineMetrics.poll(source: tag, outcome: "success")
    EngineMetrics.pollDuration(.zero, source: tag)
    EngineMetrics.forumRequests(0, source: tag)
    EngineMetrics.delivery(transport: tag, outcome: "delivered")
    EngineMetrics.deadLetter(transport: tag)
    EngineMetrics.roomDelivery(transport: tag, room: tag, kind: "post")
    AppMetrics.residentMemory()
    EngineMetrics.outboxDepth(0, transport: tag)
    AppMetrics.transportConnected(false, transport: tag)
    AppMetrics.transportReconnected(transport: tag, times: 0)
    AppMetrics.buildInfo(version: AppInfo.version)
    EngineMetrics.postsRelayed(1)
    EngineMetrics.rowsQueued(1, kind: .post)
    ForumRequestMetrics.recordFailure()

    let now = AppMetrics.exposition()
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
      OpsHTTP.value(in: now, name, labels)
    }
    AppMetrics.forumLoggedIn(value("awfulbot_forum_logged_in") == 1)
    AppMetrics.storageFull(value("awfulbot_storage_full") == 1)
    AppMetrics.outbox(
      depthByRoom: [(tag, "!\(tag)", 0)], deadLetters: Int(value("awfulbot_outbox_dead_letters") ?? 0))
    ForumRequestMetrics.wall(ForumWall.Kind.allCases.first { value("awfulbot_forum_wall", ["kind": $0.rawValue]) == 1 })

    var names = Set<String>()
    for line in AppMetrics.exposition().split(separator: "\n") where !line.hasPrefix("#") {
      if let name = line.split(whereSeparator: { $0 == "{" || $0 == " " }).first { names.insert(String(name)) }
    }
    return names
  }

  /// The metric names a PromQL expression selects: identifiers that are not a function (followed by `(`), an
  /// aggregation or keyword, a label list (`by (…)`, `on (…)`…), a label matcher (`{…}`), a range (`[…]`), a string, a
  /// number or duration, or a Grafana variable (`$…`).
  static func metricNames(in expression: String) -> Set<String> {
    let characters = Array(expression)
    let labelLists: Set<String> = ["by", "without", "on", "ignoring", "group_left", "group_right"]
    // Aggregations too: `sum by (x) (…)` puts a label list between the name and its parenthesis.
    let keywords = labelLists.union([
      "bool", "and", "or", "unless", "offset", "inf", "nan", "atan2", "sum", "min", "max", "avg", "group", "stddev",
      "stdvar", "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio",
    ])
    func isWordStart(_ character: Character) -> Bool {
      character.isASCII && (character.isLetter || character == "_" || character == ":")
    }
    func isWord(_ character: Character) -> Bool { isWordStart(character) || (character.isASCII && character.isNumber) }
    var names = Set<String>()
    var index = 0
    /// Moves past the bracket that closes the one at `index` (or past the string that starts there).
    func skipGroup() {
      let open = characters[index]
      let close: Character =
        switch open {
        case "{": "}"
        case "[": "]"
        case "(": ")"
        default: open
        }
      index += 1
      while index < characters.count, characters[index] != close {
        if characters[index] == "\\" {
          index += 2
          continue
        }
        if open != close, "\"'`".contains(characters[index]) { skipGroup() } else { index += 1 }
      }
      index += 1
    }
    while index < characters.count {
      let character = characters[index]
      if "\"'`{[".contains(character) {
        skipGroup()
      } else if character == "$" || character == "." || (character.isASCII && character.isNumber) {
        index += 1
        while index < characters.count, isWord(characters[index]) || characters[index] == "." { index += 1 }
      } else if isWordStart(character) {
        var end = index
        while end < characters.count, isWord(characters[end]) { end += 1 }
        let word = String(characters[index..<end])
        index = end
        while index < characters.count, characters[index] == " " { index += 1 }
        let call = index < characters.count && characters[index] == "("
        if call, labelLists.contains(word.lowercased()) {
          skipGroup()
        } else if !call, !keywords.contains(word.lowercased()) {
          names.insert(word)
        }
      } else {
        index += 1
      }
    }
    return names
  }

  // MARK: - Dockerfile

  @Test(
    "every COPY in the Dockerfile names files a fresh clone has, and never Package.resolved or .build",
    .enabled(if: FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)))
  func dockerfileCopiesTrackedFiles() throws {
    let tracked = try Self.trackedFiles()
    #expect(tracked.contains("Package.swift"), "git ls-files answered")
    let sources = try Self.copySources(Self.read("deploy/Dockerfile"))
    #expect(sources.contains("Sources"))
    for source in sources {
      let path = source.hasPrefix("./") ? String(source.dropFirst(2)) : source
      let components = path.split(separator: "/")
      #expect(!components.contains("Package.resolved") && !components.contains(".build"), "COPY \(source)")
      // No .dockerignore: copying the whole context would carry .build and Package.resolved from a working copy.
      #expect(!["", "."].contains(path), "COPY \(source) copies untracked files too")
      let present = tracked.contains(path) || tracked.contains { $0.hasPrefix(path + "/") }
      #expect(present, "COPY \(source): not tracked by git, so a fresh clone has no such file")
    }
  }

  @Test("the Dockerfile builds with the same swift build flags as scripts/release-check")
  func dockerfileBuildFlags() throws {
    let docker = Self.buildCommands(try Self.read("deploy/Dockerfile"))
    let releaseCheck = Self.buildCommands(try Self.read("scripts/release-check"))
    #expect(docker.count == 1, "\(docker)")
    #expect(releaseCheck.count == 1, "\(releaseCheck)")
    let dockerFlags = try #require(docker.first)
    // Where the build goes is no flag of the binary: the release check builds in its own .build-release.
    #expect(dockerFlags == releaseCheck.first?.filter { !$0.hasPrefix("--scratch-path") })
    #expect(dockerFlags == ["-c release", "--static-swift-stdlib", "--product awfulbot"])
  }

  /// The sources of each `COPY` that copies from the build context (not `--from=` another stage).
  static func copySources(_ dockerfile: String) throws -> [String] {
    var sources: [String] = []
    for instruction in instructions(dockerfile) {
      let words = instruction.split(separator: " ").map(String.init)
      guard words.first?.uppercased() == "COPY" else { continue }
      let arguments = Array(words.dropFirst())
      if arguments.contains(where: { $0.hasPrefix("--from=") }) { continue }
      let rest = arguments.filter { !$0.hasPrefix("--") }.joined(separator: " ")
      let paths: [String]
      if rest.hasPrefix("[") {
        paths = try #require(JSONSerialization.jsonObject(with: Data(rest.utf8)) as? [String])
      } else {
        paths = rest.split(separator: " ").map(String.init)
      }
      #expect(paths.count >= 2, "COPY \(rest)")
      sources += paths.dropLast()
    }
    return sources
  }

  /// The Dockerfile's instructions (or a script's lines), continuation lines joined and comments dropped.
  static func instructions(_ text: String) -> [String] {
    var result: [String] = []
    var current = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("#") { continue }
      if trimmed.hasSuffix("\\") {
        current += trimmed.dropLast() + " "
      } else {
        result.append(current + trimmed)
        current = ""
      }
    }
    return result.filter { !$0.isEmpty }
  }

  /// The arguments of every `swift build` command (not `--show-bin-path` queries), an option and its value as one
  /// element.
  static func buildCommands(_ text: String) -> [Set<String>] {
    var commands: [Set<String>] = []
    for instruction in instructions(text) {
      let commandLine = instruction.hasPrefix("RUN ") ? String(instruction.dropFirst(4)) : instruction
      for command in commandLine.components(separatedBy: "&&").flatMap({ $0.components(separatedBy: ";") }) {
        let words = command.split(separator: " ").map(String.init)
        guard words.starts(with: ["swift", "build"]), !words.contains("--show-bin-path") else { continue }
        var flags = Set<String>()
        var rest = words.dropFirst(2).makeIterator()
        var pending: String?
        while let word = pending ?? rest.next() {
          pending = nil
          let option = word == "--configuration" ? "-c" : word
          if option.hasPrefix("-"), let value = rest.next() {
            if value.hasPrefix("-") {
              flags.insert(option)
              pending = value
            } else {
              flags.insert("\(option) \(value)")
            }
          } else {
            flags.insert(option)
          }
        }
        commands.append(flags)
      }
    }
    return commands
  }

  /// Every file git tracks, relative to the repository's root.
  static func trackedFiles() throws -> Set<String> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", root.path, "ls-files", "-z"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "git ls-files")
    return Set(String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init))
  }

  // MARK: - Compose

  @Test("compose mounts files that exist, read-only, where Grafana and Prometheus look for them")
  func composeMounts() throws {
    let services = Self.composeVolumes(try Self.read("deploy/docker-compose.yml"))
    #expect(Set(services.keys).isSuperset(of: ["awfulbot", "prometheus", "grafana"]), "\(services)")
    for (service, volumes) in services {
      for volume in volumes {
        let parts = volume.split(separator: ":").map(String.init)
        guard let host = parts.first, host.hasPrefix(".") || host.hasPrefix("/") else { continue }
        let path = Self.deploy.appendingPathComponent(host).standardizedFileURL.path
        #expect(FileManager.default.fileExists(atPath: path), "\(service) mounts \(host), which is not there")
        if service != "awfulbot" { #expect(parts.last == "ro", "\(service) mounts \(volume) writable") }
      }
    }
    #expect(services["prometheus"]?.contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro") == true)
    #expect(services["grafana"]?.contains("./grafana/provisioning:/etc/grafana/provisioning:ro") == true)
    let provider = try Self.read("deploy/grafana/provisioning/dashboards/awfulbot.yml")
    #expect(provider.contains("path: /var/lib/grafana/dashboards\n"))
    #expect(services["grafana"]?.contains("./grafana/dashboards:/var/lib/grafana/dashboards:ro") == true)

    // Prometheus scrapes the bot's service at the port its compose config listens on.
    let scrape = try Self.read("deploy/prometheus/prometheus.yml")
    let config = try #require(
      try JSONSerialization.jsonObject(with: Data(Self.read("deploy/compose/awfulbot.json").utf8)) as? [String: Any])
    let listen = try #require((config["metrics"] as? [String: Any])?["listen"] as? String)
    let port = try #require(listen.split(separator: ":").last)
    #expect(scrape.contains(#"targets: ["awfulbot:\#(port)"]"#), "\(scrape)")
  }

  /// Each service's `volumes:` entries, read from the compose file's layout (two spaces per level).
  static func composeVolumes(_ text: String) -> [String: [String]] {
    var result: [String: [String]] = [:]
    var inServices = false
    var service: String?
    var inVolumes = false
    for line in text.split(separator: "\n") {
      let content = line.trimmingCharacters(in: .whitespaces)
      if content.isEmpty || content.hasPrefix("#") { continue }
      switch line.prefix(while: { $0 == " " }).count {
      case 0:
        inServices = content == "services:"
        service = nil
        inVolumes = false
      case 2 where inServices:
        service = String(content.dropLast())
        inVolumes = false
      case 4 where service != nil:
        inVolumes = content == "volumes:"
      default:
        if inVolumes, let service, content.hasPrefix("- ") {
          let entry = content.dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
          result[service, default: []].append(entry)
        }
      }
    }
    return result
  }
}
