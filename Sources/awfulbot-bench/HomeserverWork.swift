import AsyncHTTPClient
import Foundation

/// What the homeserver did during one leg, from Synapse's own counters (its Prometheus page, served when
/// `scripts/with-synapse` ran with `AWFULBOT_SYNAPSE_METRICS=1`): requests and their CPU by endpoint, database
/// transactions, and the process's CPU. Counts do not drift with Synapse's speed as rates do, so they say exactly what
/// each sender asked of the homeserver.
struct HomeserverWork: Sendable {
  /// Requests answered, by endpoint ("PUT RoomSendEventRestServlet").
  var requests: [String: Double] = [:]
  /// CPU seconds spent in those requests (user plus system), by endpoint.
  var requestCPU: [String: Double] = [:]
  var databaseTransactions: Double = 0
  var processCPU: Double = 0

  /// The counters now; nil when no metrics address is set or the page cannot be read.
  static func snapshot() async -> HomeserverWork? {
    guard let address = ProcessInfo.processInfo.environment["AWFULBOT_SYNAPSE_METRICS_URL"], !address.isEmpty
    else { return nil }
    do {
      let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: address), timeout: .seconds(10))
      guard response.status == .ok else { return nil }
      let body = try await response.body.collect(upTo: 64 << 20)
      return parse(String(buffer: body))
    } catch {
      return nil
    }
  }

  /// The counters this work needs, from Prometheus's text format.
  static func parse(_ text: String) -> HomeserverWork {
    var work = HomeserverWork()
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
        continue
      }
      let series = line[..<space]
      let name = series.prefix { $0 != "{" }
      switch name {
      case "synapse_http_server_response_count_total":
        work.requests[endpoint(series), default: 0] += value
      case "synapse_http_server_response_ru_utime_seconds_total", "synapse_http_server_response_ru_stime_seconds_total":
        work.requestCPU[endpoint(series), default: 0] += value
      case "synapse_storage_transaction_time_count_total":
        work.databaseTransactions += value
      case "process_cpu_seconds_total":
        work.processCPU += value
      default:
        continue
      }
    }
    return work
  }

  /// "PUT RoomSendEventRestServlet" from a series' `method` and `servlet` labels.
  private static func endpoint(_ series: Substring) -> String {
    "\(label("method", in: series)) \(label("servlet", in: series))"
  }

  private static func label(_ name: String, in series: Substring) -> String {
    guard let start = series.range(of: "\(name)=\"") else { return "?" }
    return String(series[start.upperBound...].prefix { $0 != "\"" })
  }

  /// What happened between `earlier` and `self`.
  func since(_ earlier: HomeserverWork) -> HomeserverWork {
    HomeserverWork(
      requests: requests.merging(earlier.requests.mapValues { -$0 }, uniquingKeysWith: +).filter { $0.value > 0 },
      requestCPU: requestCPU.merging(earlier.requestCPU.mapValues { -$0 }, uniquingKeysWith: +),
      databaseTransactions: databaseTransactions - earlier.databaseTransactions,
      processCPU: processCPU - earlier.processCPU)
  }

  mutating func add(_ other: HomeserverWork) {
    requests.merge(other.requests, uniquingKeysWith: +)
    requestCPU.merge(other.requestCPU, uniquingKeysWith: +)
    databaseTransactions += other.databaseTransactions
    processCPU += other.processCPU
  }

  /// "per 1,000 events: 1,000 PUT RoomSendEventRestServlet (10.8 s CPU), 29 GET SyncRestServlet (0.1 s CPU);
  /// 9,012 database transactions; Synapse 36.1 s CPU".
  func perThousand(events: Int) -> String {
    let scale = 1000 / Double(max(events, 1))
    let endpoints = requests.sorted { $0.value > $1.value }.map { endpoint, count in
      "\(Int((count * scale).rounded())) \(endpoint) (\(String(format: "%.2f", (requestCPU[endpoint] ?? 0) * scale)) s CPU)"
    }
    return "per 1,000 events: \(endpoints.joined(separator: ", ")); "
      + "\(Int((databaseTransactions * scale).rounded())) database transactions; "
      + "Synapse \(String(format: "%.1f", processCPU * scale)) s CPU"
  }
}
