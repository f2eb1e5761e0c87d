import BotCore
import Foundation
import Testing

@testable import AwfulBotApp

/// The config is input from outside the process too: a number no conversion can take (`.seconds(1e300)` traps) is
/// a problem named by its key, never a crash at start (issue 43).
@Suite("configuration: numbers too large to use")
struct ConfigHugeNumberTests {
  static func problems<T: Decodable>(_ type: T.Type, _ json: String) -> [String] {
    do {
      _ = try ConfigurationDecoding.decode(T.self, from: Data(json.utf8), environment: [:])
      return []
    } catch let error as ConfigurationError {
      return error.problems
    } catch {
      return ["\(error)"]
    }
  }

  @Test("1e300 seconds is reported by key; 1e15 is read")
  func hugeIntervals() throws {
    #expect(
      Self.problems(
        AppConfiguration.PollingSettings.self, #"{"bookmarksSeconds": 1e300, "maximumBackoffSeconds": -1e20}"#)
        == [
          "bookmarksSeconds: expected a number from -1e15 to 1e15, got 1e+300",
          "maximumBackoffSeconds: expected a number from -1e15 to 1e15, got -1e+20",
        ])
    let forum = Self.problems(
      AppConfiguration.ForumSettings.self,
      #"{"username": "bot", "password": "x", "requestTimeoutSeconds": 1e300, "requestSpacingSeconds": 1e16}"#)
    #expect(forum.contains("requestTimeoutSeconds: expected a number from -1e15 to 1e15, got 1e+300"))
    #expect(forum.contains("requestSpacingSeconds: expected a number from -1e15 to 1e15, got 1e+16"))
    // The largest number read still converts without a trap, through every poll interval and the backoff.
    let polling = try ConfigurationDecoding.decode(
      AppConfiguration.PollingSettings.self,
      from: Data(#"{"bookmarksSeconds": 1e15, "forumsSeconds": 1e15, "maximumBackoffSeconds": 1e15}"#.utf8),
      environment: [:])
    var configuration = AppConfiguration(
      forum: .init(username: "bot", password: SecretValue(literal: "x")), transports: [])
    configuration.polling = polling
    let engine = BotApplication.engineConfiguration(for: configuration)
    #expect(engine.bookmarksInterval == .seconds(1e15))
    #expect(engine.maximumPollBackoff == .seconds(1e15))
  }
}
