import ChatBridge
import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix configuration read key by key")
struct MatrixConfigurationReadingTests {
  static func problems(_ json: String, userInfo: [CodingUserInfoKey: any Sendable] = [:]) -> [ConfigProblem] {
    let decoder = JSONDecoder()
    decoder.userInfo = userInfo
    do {
      _ = try decoder.decode(MatrixTransportConfiguration.self, from: Data(json.utf8))
      return []
    } catch let error as MatrixConfigurationError {
      return error.keyedProblems
    } catch {
      Issue.record("not a keyed error: \(error)")
      return []
    }
  }

  @Test("garbage in every key: each problem names its key, all at once, in the file's order; no secret shows")
  func garbage() {
    let json = ##"""
      {"name": 7, "homeserver": "javascript:alert(1)", "userID": ["@bot:example.org"], "accessToken": 12,
       "password": {"x": "hunter2-secret"}, "deviceID": false, "deviceName": [], "rooms": ["#ok:example.org", 5, "x"],
       "allowedInviters": "everyone", "memberPowerLevel": 1.5, "adminPowerLevel": "100",
       "roleOverrides": {"@a:example.org": "Owner", "@b:example.org": 2, "@c:example.org": "ADMIN"},
       "threadRooms": ["not a room"], "syncTimeoutSeconds": 9999, "suppressLinkPreviews": "yes",
       "pickleKey": 3, "undecryptableWaitSeconds": "soon",
       "encryption": {"enabled": "on", "trust": "everyone", "recoveryKey": "hunter2-secret", "colour": 1},
       "acceptedIdentities": {"bob": "short", "@c:example.org": 4, "_comment": "a note"},
       "images": {"maxBytes": "big", "rooms": {"goons": "inline", "#a:example.org": "gallery"}}}
      """##
    let found = Self.problems(json)
    #expect(
      found.map(\.description) == [
        "name: expected a string, got a number",
        "homeserver: expected an http(s) URL, got \"javascript:alert(1)\"",
        "userID: expected a string, got a list",
        "accessToken: expected a string, got a number",
        "password: expected a string, got an object",
        "deviceID: expected a string, got a boolean",
        "deviceName: expected a string, got a list",
        "rooms[1]: expected a string, got a number",
        "allowedInviters: expected a list, got a string",
        "memberPowerLevel: expected a whole number, got 1.5",
        "adminPowerLevel: expected a number, got a string",
        "roleOverrides.@a:example.org: expected viewer, member or admin",
        "roleOverrides.@b:example.org: expected viewer, member or admin",
        "threadRooms[0]: expected a room id (!id:server) or alias (#name:server), got \"not a room\"",
        "syncTimeoutSeconds: expected 1 to 300 seconds, got 9999.0",
        "suppressLinkPreviews: expected true or false, got a string",
        "pickleKey: expected a string, got a number",
        "undecryptableWaitSeconds: expected a number, got a string",
        "encryption.colour: unknown key (enabled, trust, recoveryKey)",
        "encryption.enabled: expected true or false, got a string",
        "encryption.trust: expected cross-signed or any",
        "encryption.recoveryKey: the recovery key has a character that is not in a recovery key (“-”)",
        "acceptedIdentities.@c:example.org: " + MatrixTransportConfiguration.masterKeyProblem,
        "acceptedIdentities.bob: expected a full Matrix user id as the key",
        "acceptedIdentities.bob: " + MatrixTransportConfiguration.masterKeyProblem,
        "images.maxBytes: expected a number, got a string",
        "images.rooms: moved to the rooms' own settings: give each room \"pictures\": \"links\" in its rooms[] "
          + "entry, or say !pictures links in the room",
        "set accessToken or password",
      ])
    #expect(!found.map(\.description).joined().contains("hunter2"), "a secret never appears in a problem")
  }

  @Test("a role override that is not a role names roleOverrides.<user>; a role in any case is read as a Role")
  func roleOverrides() throws {
    let base = #"{"homeserver": "https://m.example.org", "userID": "@bot:example.org", "accessToken": "t", "#
    #expect(
      Self.problems(base + #""roleOverrides": {"@root:example.org": "root"}}"#)
        == [.init("roleOverrides.@root:example.org", "expected viewer, member or admin")])
    #expect(
      Self.problems(base + #""roleOverrides": ["@root:example.org"]}"#)
        == [.init("roleOverrides", "expected an object of user id to role, got a list")])
    let decoded = try JSONDecoder().decode(
      MatrixTransportConfiguration.self,
      from: Data((base + #""roleOverrides": {"@a:example.org": "Admin", "@v:example.org": "VIEWER"}}"#).utf8))
    #expect(decoded.roleOverrides == ["@a:example.org": .admin, "@v:example.org": .viewer])
  }

  @Test("hostile values: a file URL, control characters and a huge number are refused at their keys")
  func hostile() {
    let json = ##"""
      {"homeserver": "file:///etc/passwd", "userID": "@bot:example.org\nPRIVMSG", "accessToken": "syt_hunter2",
       "rooms": ["!room:example.org\r\n"], "memberPowerLevel": 1e300, "images": "all of them",
       "encryption": ["on"], "acceptedIdentities": "@a:example.org"}
      """##
    let found = Self.problems(json)
    #expect(
      found.map(\.key) == [
        "homeserver", "userID", "rooms[0]", "memberPowerLevel", "encryption", "acceptedIdentities", "images",
      ], "\(found)")
    #expect(!found.map(\.description).joined().contains("hunter2"))
  }

  @Test("the transport's own validation is the decoder's: the same checks, as sentences")
  func validationSharesTheChecks() {
    let configuration = MatrixTransportConfiguration(
      homeserver: URL(string: "ftp://m.example.org")!, userID: "@bot:example.org", accessToken: "t",
      memberPowerLevel: 90, adminPowerLevel: 10, threadRooms: ["nope"])
    #expect(
      configuration.validationErrors() == [
        "matrix matrix: homeserver: expected an http(s) URL, got \"ftp://m.example.org\"",
        "matrix matrix: memberPowerLevel: must not exceed adminPowerLevel (10)",
        "matrix matrix: threadRooms[0]: expected a room id (!id:server) or alias (#name:server), got \"nope\"",
      ])
  }

  @Test("decoded with secrets optional, an account without token or password reads; otherwise it is a problem")
  func secretsOptional() throws {
    let json = #"{"homeserver": "https://m.example.org", "userID": "@bot:example.org"}"#
    #expect(Self.problems(json) == [MatrixTransportConfiguration.credentialsProblem])
    #expect(Self.problems(json, userInfo: [.secretsOptional: true]) == [])
  }
}
