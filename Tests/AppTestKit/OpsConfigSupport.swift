import AwfulBotApp
import AwfulBotTestKit
import Foundation

/// Builds configuration JSON from a small valid base plus overrides, and returns what loading says about it.
package enum OpsConfig {
  package static var base: [String: Any] {
    [
      "forum": ["username": "bot", "password": "pw"],
      "transports": [["type": "console"]],
    ]
  }

  /// The problems loading reports for the base with `overrides` applied at the top level (nil removes a key).
  package static func problems(
    _ overrides: [String: Any?] = [:], environment: [String: String] = [:], checksSecrets: Bool = true
  ) -> [String] {
    do {
      _ = try parse(overrides, environment: environment, checksSecrets: checksSecrets)
      return []
    } catch let error as ConfigurationError {
      return error.problems
    } catch {
      return ["unexpected: \(error)"]
    }
  }

  package static func parse(
    _ overrides: [String: Any?] = [:], environment: [String: String] = [:], checksSecrets: Bool = true
  ) throws -> AppConfiguration {
    try AppConfiguration.parse(data: data(overrides), environment: environment, checksSecrets: checksSecrets)
  }

  package static func data(_ overrides: [String: Any?]) throws -> Data {
    var object = base
    for (key, value) in overrides {
      if let value { object[key] = value } else { object.removeValue(forKey: key) }
    }
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  }

  /// Problems for a single transport object (as `transports[0]`).
  package static func transportProblems(_ transport: [String: Any], environment: [String: String] = [:]) -> [String] {
    problems(["transports": [transport]], environment: environment)
  }

  package static func temporaryFile(_ data: Data, mode: Int) throws -> String {
    let path = TestScratch.path("awfulbot-ops", extension: "json").path
    guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: mode]) else {
      throw CocoaError(.fileWriteUnknown)
    }
    return path
  }
}
