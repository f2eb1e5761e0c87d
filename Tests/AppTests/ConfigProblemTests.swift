import AwfulBotApp
import ChatBridge
import Foundation
import Testing

/// Every layer that reads config reads it through one `ConfigReader` and reports one `ConfigProblem` (key path,
/// what was wrong, a did-you-mean): an app section and a transport's own configuration say a misspelt key the same
/// way, and the suggestion is a value, not only words.
@Suite("config: one reader, one problem type")
struct ConfigProblemTests {
  private static func problems(_ json: String) -> [ConfigProblem] {
    do {
      _ = try ConfigurationDecoding.decode(AppConfiguration.self, from: Data(json.utf8), environment: [:])
      return []
    } catch let error as ConfigurationError {
      return error.found
    } catch {
      return [ConfigProblem("", "unexpected: \(error)")]
    }
  }

  @Test("a misspelt key in a section and in a transport: the key path, the reason and the key it most likely meant")
  func misspeltKeys() {
    let found = Self.problems(
      ##"""
      {"forum": {"username": "bot", "password": "pw"}, "polling": {"bookmarkSeconds": 60},
       "transports": [{"type": "matrix", "homeserver": "https://m.example.org", "userID": "@bot:example.org",
                       "accessToken": "t", "rom": ["#a:example.org"]}]}
      """##)
    #expect(
      found == [
        ConfigProblem("polling.bookmarkSeconds", "unknown key", suggestion: "bookmarksSeconds"),
        ConfigProblem("transports[0].rom", "unknown key for a matrix transport", suggestion: "rooms"),
      ])
    #expect(
      found.map(\.description) == [
        "polling.bookmarkSeconds: unknown key (did you mean \"bookmarksSeconds\"?)",
        "transports[0].rom: unknown key for a matrix transport (did you mean \"rooms\"?)",
      ])
  }

  @Test("a transport's own problems come back at their full key paths, in the file's order")
  func transportProblemsAtFullPaths() {
    let found = Self.problems(
      ##"""
      {"forum": {"username": "bot", "password": "pw"},
       "transports": [{"type": "console"},
                      {"type": "irc", "server": "irc.example.org:6697", "nick": "bot", "floodBurst": 2.5,
                       "channels": ["#ok", {"name": "#x", "key": 5}]}]}
      """##)
    #expect(
      found.map(\.description) == [
        "transports[1].channels[1].key: expected a string, got a number",
        "transports[1].floodBurst: expected a whole number, got 2.5",
      ])
  }
}
