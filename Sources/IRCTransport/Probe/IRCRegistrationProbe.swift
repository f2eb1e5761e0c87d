import Foundation
import Logging

/// One connection that registers and quits, for `awfulbot check`: the transport's own connection code (TLS with
/// the configured CA, CAP and SASL, NICK/USER with the alternates) but no channels, no NickServ and no retries.
/// A SASL failure (or a network without SASL when it is configured) ends it, as it ends the transport.
package enum IRCRegistrationProbe {
  package static func run(
    _ configuration: IRCTransportConfiguration, logger: Logger = Logger(label: "awfulbot.irc.probe")
  ) async -> IRCProbeResult {
    var configuration = configuration
    configuration.channels = []
    configuration.quitMessage = "awfulbot check"
    do {
      try configuration.validate()
    } catch {
      return .failed(.other(error.description))
    }
    for (key, path) in [
      ("caFile", configuration.caFile), ("clientCertificateFile", configuration.clientCertificateFile),
      ("clientKeyFile", configuration.clientKeyFile),
    ] {
      if let path, configuration.tls, !FileManager.default.isReadableFile(atPath: path) {
        return .failed(.tlsSetup("\(key) \(path) does not exist or is not readable"))
      }
    }
    let client: IRCClient
    do {
      client = try IRCClient(configuration: configuration, logger: logger, mode: .probe) { _ in }
    } catch {
      return .failed(.tlsSetup("\(error)"))
    }
    do {
      _ = try await client.runConnection()
    } catch {
      // Recorded by the client as the connection's failure.
    }
    return await client.probeResult()
  }
}
