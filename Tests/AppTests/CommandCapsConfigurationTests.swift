import BotCore
import Foundation
import Testing

@testable import AwfulBotApp

/// `commands.forumsPerRoom` and `commands.watchedThreadsPerRoom` reach the engine's caps (`EngineConfiguration`);
/// the section reader's checks of them are in `ConfigSectionReaderTests`.
@Suite("configuration: the caps per room")
struct CommandCapsConfigurationTests {
  @Test("the caps per room reach the engine; left out, the defaults (10 forums, 50 threads)")
  func capsReachTheEngine() throws {
    let caps = try ConfigurationDecoding.decode(
      AppConfiguration.CommandSettings.self, from: Data(#"{"forumsPerRoom": 3, "watchedThreadsPerRoom": 0}"#.utf8),
      environment: [:])
    #expect(caps == .init(forumsPerRoom: 3, watchedThreadsPerRoom: 0))
    var configuration = AppConfiguration(
      forum: .init(username: "bot", password: SecretValue(literal: "x")), transports: [])
    configuration.commands = caps
    let engine = BotApplication.engineConfiguration(for: configuration)
    #expect(engine.maximumForumsPerRoom == 3)
    #expect(engine.maximumWatchedThreadsPerRoom == 0, "0: no cap")
    configuration.commands = nil
    let standard = BotApplication.engineConfiguration(for: configuration)
    #expect(standard.maximumForumsPerRoom == 10 && standard.maximumWatchedThreadsPerRoom == 50)
  }
}
