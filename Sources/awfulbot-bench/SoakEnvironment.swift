import Foundation

/// The test servers the soak runs against, from the variables `scripts/with-synapse` and `scripts/with-ircd`
/// export: a Synapse with shared-secret registration, the encrypting client's Python, and an IRC network with the
/// bot's services account.
struct SoakEnvironment: Sendable {
  var homeserver: URL
  var synapseSecret: String
  var e2eePython: String
  var e2eeScript: String
  var ircHost: String
  var ircPort: Int
  var ircAccount: String
  var ircPassword: String

  static func current() throws -> SoakEnvironment {
    let variables = ProcessInfo.processInfo.environment
    func value(_ name: String) throws -> String {
      guard let value = variables[name], !value.isEmpty else {
        throw SoakError.setup(
          "\(name) is not set: run under scripts/with-ircd scripts/with-synapse (they start the servers)")
      }
      return value
    }
    guard let homeserver = URL(string: try value("AWFULBOT_SYNAPSE_URL")) else {
      throw SoakError.setup("AWFULBOT_SYNAPSE_URL is not a URL")
    }
    guard let port = Int(try value("AWFULBOT_IRC_PORT")) else { throw SoakError.setup("AWFULBOT_IRC_PORT") }
    return SoakEnvironment(
      homeserver: homeserver, synapseSecret: try value("AWFULBOT_SYNAPSE_SECRET"),
      e2eePython: try value("AWFULBOT_E2EE_PYTHON"), e2eeScript: try value("AWFULBOT_E2EE_HUMAN"),
      ircHost: try value("AWFULBOT_IRC_HOST"), ircPort: port, ircAccount: try value("AWFULBOT_IRC_ACCOUNT"),
      ircPassword: try value("AWFULBOT_IRC_PASSWORD"))
  }
}
