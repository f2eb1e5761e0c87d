import AwfulBotTestKit
import ChatBridge
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Plain HTTP GETs against the bot's metrics listener, and reading values out of the Prometheus text.
enum OpsHTTP {
  static func get(_ url: String) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: url)!)
    request.timeoutInterval = 10
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  /// The value of the sample `name{labels…}` (every given label must match; others may be present).
  static func value(in exposition: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " ") else { continue }
      let series = line[..<space]
      let sampleName = series.prefix { $0 != "{" }
      guard sampleName == name else { continue }
      if labels.allSatisfy({ series.contains("\($0.key)=\"\($0.value)\"") }) {
        return Double(line[line.index(after: space)...])
      }
    }
    return nil
  }
}
