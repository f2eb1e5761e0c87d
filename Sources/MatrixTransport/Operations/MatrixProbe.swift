import ChatBridge
import Foundation
import MatrixModel

/// What `awfulbot check` does for a Matrix transport: `GET /_matrix/client/versions`, then proves the credentials.
///
/// With an access token it asks `whoami`. With only a password it logs in on a throwaway device and logs out at
/// once (which deletes that device): `check` must work before the first run, when the daemon has no stored token,
/// and must neither reuse nor disturb the daemon's own session and device. Nothing it prints contains a secret.
package struct MatrixProbe: Sendable {
  var configuration: MatrixTransportConfiguration
  var client: MatrixClient
  /// How long `/versions` may take before the homeserver counts as unreachable.
  /// (AsyncHTTPClient keeps retrying a refused connection until then, so this is also how long "unreachable" takes.)
  var timeout: Duration = .seconds(5)

  package init(configuration: MatrixTransportConfiguration, client: MatrixClient? = nil) {
    self.configuration = configuration
    self.client = client ?? MatrixClient(homeserver: configuration.homeserver)
  }

  private var name: String { "matrix \(configuration.name)" }
  private var homeserver: String { configuration.homeserver.absoluteString }
  private var userID: String { configuration.userID }

  package func run() async -> CheckResult {
    if let failure = await checkVersions() { return failure }
    if let token = configuration.accessToken, !token.isEmpty {
      return await checkToken(token)
    }
    if let password = configuration.password, !password.isEmpty {
      return await checkPassword(password, tokenRejected: false)
    }
    return CheckResult(
      .fail, name, detail: "no access token or password", fix: "set accessToken or password for \(userID)")
  }

  private func checkVersions() async -> CheckResult? {
    do {
      let versions = try await client.versions(timeout: timeout)
      if versions.versions.isEmpty {
        return notAHomeserver("no versions listed")
      }
      return nil
    } catch MatrixClientError.network(let reason) {
      return CheckResult(
        .fail, name, detail: "homeserver unreachable: \(reason)",
        fix: "check homeserver (\(homeserver)), DNS, and that this host may connect to it")
    } catch {
      return notAHomeserver("\(error)")
    }
  }

  private func notAHomeserver(_ reason: String) -> CheckResult {
    CheckResult(
      .fail, name,
      detail: "\(homeserver) does not answer like a Matrix homeserver (/_matrix/client/versions: \(reason))",
      fix: "set homeserver to the client-server API base URL (the m.homeserver base_url of "
        + "https://<server>/.well-known/matrix/client)")
  }

  private func checkToken(_ token: String) async -> CheckResult {
    do {
      let whoami = try await client.whoami(token: token)
      guard whoami.userID == userID else { return wrongAccount(whoami.userID) }
      return CheckResult(.pass, name, detail: "\(whoami.userID) on \(homeserver)")
    } catch MatrixClientError.api(let error) where error.isUnknownToken {
      if let password = configuration.password, !password.isEmpty {
        return await checkPassword(password, tokenRejected: true)
      }
      return CheckResult(
        .fail, name, detail: "token rejected (\(error.errcode ?? "M_UNKNOWN_TOKEN"))",
        fix: "create a new access token for \(userID) or set password")
    } catch {
      return unexpected("whoami", error)
    }
  }

  private func checkPassword(_ password: String, tokenRejected: Bool) async -> CheckResult {
    let login: MatrixLoginResponse
    do {
      login = try await client.login(
        user: userID, password: password, deviceID: "AWFULBOTCHECK\(Int.random(in: 100_000...999_999))",
        deviceName: "awfulbot check")
    } catch MatrixClientError.api(let error) where error.isForbidden {
      return CheckResult(
        .fail, name,
        detail: (tokenRejected ? "token rejected (M_UNKNOWN_TOKEN) and " : "")
          + "login rejected (\(error.errcode ?? "M_FORBIDDEN"))",
        fix: "check the password of \(userID)" + (tokenRejected ? ", or create a new access token" : ""))
    } catch {
      return unexpected("login", error)
    }
    // Best effort: a device left behind by a failed logout is harmless and visible in the account's sessions.
    try? await client.logout(token: login.accessToken)
    guard login.userID == userID else { return wrongAccount(login.userID) }
    if tokenRejected {
      return CheckResult(
        .warn, name,
        detail: "token rejected (M_UNKNOWN_TOKEN); the password works, so the bot will log in as \(login.userID) on "
          + "\(homeserver)",
        fix: "remove accessToken, or replace it with a new one")
    }
    return CheckResult(.pass, name, detail: "\(login.userID) on \(homeserver) (password login works)")
  }

  private func wrongAccount(_ actual: String) -> CheckResult {
    CheckResult(
      .fail, name, detail: "the credentials belong to \(actual), but userID is \(userID)",
      fix: "set userID to \(actual), or use credentials of \(userID)")
  }

  private func unexpected(_ step: String, _ error: any Error) -> CheckResult {
    if case MatrixClientError.network(let reason)? = error as? MatrixClientError {
      return CheckResult(
        .fail, name, detail: "homeserver unreachable: \(reason)",
        fix: "check homeserver (\(homeserver)) and that it is running")
    }
    return CheckResult(
      .fail, name, detail: "\(step) failed: \(error)",
      fix: "run with --log-level debug; see the README's Troubleshooting")
  }
}
