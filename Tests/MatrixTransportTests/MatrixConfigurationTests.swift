import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixCrypto
import Testing

@testable import MatrixTransport

@Suite("Matrix transport configuration")
struct MatrixConfigurationTests {
  @Test("decodes with defaults for everything optional")
  func decoding() throws {
    let json = #"""
      {"homeserver": "https://matrix.example.org", "userID": "@bot:example.org", "password": "pw",
       "rooms": ["#goons:example.org"], "allowedInviters": ["example.org"], "roleOverrides": {"@f:x.org": "admin"}}
      """#
    let configuration = try JSONDecoder().decode(MatrixTransportConfiguration.self, from: Data(json.utf8))
    #expect(configuration.name == "matrix")
    #expect(configuration.memberPowerLevel == 50)
    #expect(configuration.adminPowerLevel == 100)
    #expect(configuration.roleOverrides == ["@f:x.org": .admin])
    #expect(configuration.suppressLinkPreviews)
    #expect(configuration.validationErrors().isEmpty)
    #expect(!configuration.description.contains("pw"), "the password never appears in a description")
  }

  @Test("encryption is read into types: the trust policy, and the recovery key parsed once, with a typo refused")
  func encryptionSettings() throws {
    func decode(_ encryption: String) throws -> MatrixTransportConfiguration {
      let json =
        #"{"homeserver": "https://m.example.org", "userID": "@bot:example.org", "password": "pw", "encryption": "#
      return try JSONDecoder().decode(MatrixTransportConfiguration.self, from: Data((json + encryption + "}").utf8))
    }
    let key = RecoveryKey(bytes: Array(0..<32))
    let configured = try decode(#"{"trust": "any", "recoveryKey": "\#(key.displayed)"}"#)
    #expect(configured.encryption == MatrixEncryptionSettings(enabled: true, trust: .any, recoveryKey: key))
    #expect(try decode("{}").encryption == MatrixEncryptionSettings())
    let typo = #expect(throws: MatrixConfigurationError.self) { try decode(#"{"recoveryKey": "EsSz ykH7 LCZx 7Cae"}"#) }
    #expect(typo?.keyedProblems.map(\.key) == ["encryption.recoveryKey"])
    #expect(typo.map { !"\($0)".contains("ykH7") } == true, "the recovery key never appears in a problem")
    let trust = #expect(throws: MatrixConfigurationError.self) { try decode(#"{"trust": "everyone"}"#) }
    #expect(trust?.problems == ["encryption.trust: expected cross-signed or any"])
    let written = try JSONEncoder().encode(configured.encryption)
    #expect(try JSONDecoder().decode(MatrixEncryptionSettings.self, from: written) == configured.encryption)
  }

  @Test("invites are accepted from listed users, listed servers, or anyone with *")
  func inviters() {
    var configuration = MatrixTransportConfiguration(
      homeserver: URL(string: "https://m.example.org")!, userID: "@bot:example.org", accessToken: "t",
      allowedInviters: ["@alice:elsewhere.net", "example.org"])
    #expect(configuration.acceptsInvite(from: "@alice:elsewhere.net"))
    #expect(configuration.acceptsInvite(from: "@anyone:example.org"))
    #expect(!configuration.acceptsInvite(from: "@bob:elsewhere.net"))
    #expect(!configuration.acceptsInvite(from: "@x:notexample.org"))
    configuration.allowedInviters = ["*"]
    #expect(configuration.acceptsInvite(from: "@bob:elsewhere.net"))
    configuration.allowedInviters = []
    #expect(!configuration.acceptsInvite(from: "@alice:elsewhere.net"))
  }

  @Test("missing credentials, a bad user id and a bad room are reported")
  func validation() {
    let configuration = MatrixTransportConfiguration(
      homeserver: URL(string: "https://m.example.org")!, userID: "bot", rooms: ["goons", "!opaqueV12Id", "#a:b"])
    let errors = configuration.validationErrors()
    #expect(errors.count == 3)
    #expect(errors.contains { $0.contains("accessToken or password") })
  }
}
