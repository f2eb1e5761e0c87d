import BotCore
import ChatBridge
import Foundation
import Testing

@testable import AwfulBotApp

/// The Leper's Colony in the configuration: `polling.lepersSeconds` with the other intervals' bounds and reload, and
/// `lepers` in `rooms[].subscriptions`.
@Suite("configuration: the Leper's Colony")
struct LepersConfigurationTests {
  private static func problems(_ json: String) -> [String] {
    do {
      _ = try ConfigurationDecoding.decode(
        AppConfiguration.PollingSettings.self, from: Data(json.utf8), environment: [:])
      return []
    } catch let error as ConfigurationError {
      return error.problems
    } catch {
      return ["unexpected: \(error)"]
    }
  }

  private static func configuration(_ polling: AppConfiguration.PollingSettings) -> AppConfiguration {
    AppConfiguration(
      forum: .init(username: "bot", password: SecretValue(literal: "pw")), polling: polling,
      transports: [.console()])
  }

  @Test("lepersSeconds: at least 5 seconds, a number, 300 by default; the engine and the poll schedule read it")
  func interval() throws {
    #expect(Self.problems(#"{"lepersSeconds": 2}"#) == ["lepersSeconds: must be at least 5 seconds, got 2.0"])
    #expect(Self.problems(#"{"lepersSeconds": "often"}"#) == ["lepersSeconds: expected a number, got a string"])
    #expect(Self.problems(#"{"leperSeconds": 60}"#) == [#"leperSeconds: unknown key (did you mean "lepersSeconds"?)"#])
    let read = try ConfigurationDecoding.decode(
      AppConfiguration.PollingSettings.self, from: Data(#"{"lepersSeconds": 600}"#.utf8), environment: [:])
    #expect(read == .init(lepersSeconds: 600))
    let engine = BotApplication.engineConfiguration(for: Self.configuration(read))
    #expect(engine.lepersInterval == .seconds(600))
    #expect(PollSchedule.Intervals(engine).lepers == .seconds(600))
    #expect(BotApplication.engineConfiguration(for: Self.configuration(.init())).lepersInterval == .seconds(300))
  }

  @Test("a changed lepersSeconds is applied by a reload, without a restart")
  func reload() {
    let changes = ConfigurationChanges(
      from: Self.configuration(.init()), to: Self.configuration(.init(lepersSeconds: 900)))
    #expect(changes.pollIntervals)
    #expect(changes.restartKeys.isEmpty)
  }

  @Test("lepers is a room subscription, written back as it was read")
  func subscription() {
    #expect(RoomSubscriptionSpec(parsing: "lepers") == .lepers)
    #expect(RoomSubscriptionSpec.lepers.description == "lepers")
    #expect(RoomSubscriptionSpec(parsing: "lepers:1") == nil)
    #expect(RoomSubscriptionSpec.lepers.target == .lepers)
  }
}
