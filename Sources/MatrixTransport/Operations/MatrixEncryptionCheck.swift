import ChatBridge
import Foundation
import MatrixCrypto

/// The `check` lines about a Matrix transport's end-to-end encryption: where its pickle key comes from and whether
/// the stored keys open with it (with the device's fingerprint), then the identity the homeserver publishes for the
/// bot, its chain master → self-signing → device checked signature by signature. Reads the transport's stored state
/// only (the app hands a read-only store); never prints a secret.
package enum MatrixEncryptionCheck {
  /// - Parameters:
  ///   - dataDirectory: where the bot keeps its database and the generated pickle key.
  ///   - stored: the transport's saved state, nil when the bot has no database yet.
  package static func results(
    configuration: MatrixTransportConfiguration, dataDirectory: URL, stored: (any TransportStateStore)?
  ) async -> [CheckResult] {
    let name = "encryption \(configuration.name)"
    guard configuration.encryption.enabled else {
      return [
        CheckResult(
          .warn, name,
          detail: "off: each encrypted room is told once that the bot cannot take part there, and gets "
            + "nothing else", fix: "remove encryption.enabled: false to read and write encrypted rooms")
      ]
    }
    let pickleFile = MatrixLocalSecrets.pickleKeyFile(dataDirectory: dataDirectory, transport: configuration.name)
    var pickleKey = configuration.pickleKey ?? ""
    var source = "the pickle key from the config"
    if pickleKey.isEmpty {
      guard let saved = try? String(contentsOf: pickleFile, encoding: .utf8) else {
        return [
          CheckResult(
            .pass, name,
            detail: "on; the first run makes a pickle key in \(pickleFile.path) (readable only by the bot's user), "
              + "then the device's keys and the bot's cross-signing identity")
        ]
      }
      pickleKey = saved.trimmingCharacters(in: .whitespacesAndNewlines)
      source = "the pickle key in \(pickleFile.path)"
    }
    var account: String?
    var token: String?
    var deviceID: String?
    if let stored {
      do {
        account = try await stored.value(for: MatrixEncryptionSetup.accountKey)
        token = try await stored.value(for: MatrixEncryptionSetup.accessTokenKey)
        deviceID = try await stored.value(for: MatrixEncryptionSetup.deviceIDKey)
      } catch {
        return [CheckResult(.fail, name, detail: "the database cannot be read: \(error)")]
      }
    }
    var results: [CheckResult] = []
    switch MatrixEncryptionSetup.state(storedAccount: account, pickleKey: pickleKey) {
    case .notCreated:
      results.append(
        CheckResult(.pass, name, detail: "on (\(source)); the device's keys are made and published on the first run"))
    case .ready(let device, let fingerprint, let published):
      results.append(
        CheckResult(
          published ? .pass : .warn, name,
          detail: "on (\(source)) for device \(device), ed25519 \(MatrixEncryptionSetup.grouped(fingerprint))"
            + (published ? "" : " (keys not published yet; the next run does)")))
      deviceID = device
    case .wrongPickleKey(let reason):
      return [
        CheckResult(
          .fail, name, detail: "the stored keys do not open with \(source) (\(reason))",
          fix: "restore the pickle key they were saved with; a new key means a new device and identity")
      ]
    }
    results.append(await identity(configuration, token: configuration.accessToken ?? token, deviceID: deviceID))
    return results
  }

  /// The published chain, read with the config's token or the one the bot keeps.
  private static func identity(_ configuration: MatrixTransportConfiguration, token: String?, deviceID: String?) async
    -> CheckResult
  {
    let name = "identity \(configuration.name)"
    guard let token, !token.isEmpty else {
      return CheckResult(
        .skip, name, detail: "checked once the bot has signed in (after its first run); the first run makes it")
    }
    let published: MatrixPublishedIdentity
    do {
      published = try await MatrixPublishedIdentity.read(
        homeserver: configuration.homeserver, token: token, userID: configuration.userID,
        deviceID: deviceID)
    } catch {
      return CheckResult(.fail, name, detail: "could not ask the homeserver for the bot's keys: \(error)")
    }
    guard let master = published.chain.masterKey else {
      return CheckResult(
        deviceID == nil ? .pass : .warn, name,
        detail: "no cross-signing identity is published yet; the next run makes one (Element hides what an "
          + "unverified bot device sends)")
    }
    let fingerprint = "master key \(MatrixEncryptionSetup.grouped(master))"
    if let problem = published.chain.problem {
      return CheckResult(
        .fail, name, detail: "\(fingerprint): \(problem)",
        fix: "restart the bot, which repairs the chain; if it cannot, start once with --reset-matrix-identity")
    }
    guard let deviceID else {
      return CheckResult(.pass, name, detail: "\(fingerprint), self-signing key signed by it")
    }
    guard published.deviceListed, published.deviceIsCrossSigned else {
      let state = published.deviceListed ? "not signed by it" : "not published"
      return CheckResult(
        .warn, name, detail: "\(fingerprint), but device \(deviceID) is \(state): Element users cannot read the bot",
        fix: "restart the bot; it signs its device at start")
    }
    let trust =
      configuration.encryption.trust == .crossSigned ? "only devices their owner cross-signed" : "any device"
    return CheckResult(
      .pass, name,
      detail: "cross-signed: \(fingerprint) → self-signing key → device \(deviceID), each signature checked; "
        + "trusts \(trust)")
  }
}
