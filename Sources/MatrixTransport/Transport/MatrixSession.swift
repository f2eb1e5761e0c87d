import ChatBridge
import Foundation
import Logging
import MatrixModel

/// The bot's sign-in: which access token requests carry, and getting a new one when the homeserver rejects it.
///
/// With a password the token and device id are kept in the state store, so a restart reuses the session (and the
/// device, which scopes transaction ids) instead of logging in again.
actor MatrixSession {
  private let client: MatrixClient
  private let configuration: MatrixTransportConfiguration
  private let store: any TransportStateStore
  private let logger: Logger
  private var token: String?
  private var stoppedReason: String?

  init(
    client: MatrixClient, configuration: MatrixTransportConfiguration, store: any TransportStateStore, logger: Logger
  ) {
    self.client = client
    self.configuration = configuration
    self.store = store
    self.logger = logger
  }

  var canRenew: Bool { !(configuration.password?.isEmpty ?? true) }

  /// The current token; nil until `signIn` succeeded or after `stop`.
  var currentToken: String? { stoppedReason == nil ? token : nil }

  /// Finds a working token: the configured one, else the stored one, else a password login. Checks it with whoami.
  func signIn() async throws -> MatrixWhoAmIResponse {
    let userID = configuration.userID
    // A session stored for another account (the config changed) is of no use, nor is its sync position.
    if let storedUser = try await store.value(for: MatrixStateKey.userID), storedUser != userID {
      for key in [MatrixStateKey.accessToken, MatrixStateKey.deviceID, MatrixStateKey.nextBatch] {
        try await store.setValue(nil, for: key)
      }
    }
    try await store.setValue(userID, for: MatrixStateKey.userID)

    var candidates: [String] = []
    if let configured = configuration.accessToken, !configured.isEmpty { candidates.append(configured) }
    if let stored = try await store.value(for: MatrixStateKey.accessToken), !candidates.contains(stored) {
      candidates.append(stored)
    }
    var lastRejection: MatrixAPIError?
    for candidate in candidates {
      do {
        let whoami = try await client.whoami(token: candidate)
        guard whoami.userID == userID else {
          throw MatrixTransportError.wrongAccount(configured: userID, actual: whoami.userID)
        }
        token = candidate
        stoppedReason = nil
        return whoami
      } catch MatrixClientError.api(let error) where error.isUnknownToken {
        lastRejection = error
        logger.warning("access token rejected", metadata: ["user": "\(userID)"])
      }
    }
    guard canRenew else {
      throw MatrixTransportError.tokenRejected(
        userID: userID, detail: lastRejection?.description ?? "no access token configured")
    }
    try await login()
    let whoami = try await client.whoami(token: token ?? "")
    return whoami
  }

  /// Called when a request came back with `M_UNKNOWN_TOKEN`. Logs in again unless another caller already did;
  /// returns the token to retry with. Without a password the session stops.
  func renew(rejected: String) async throws -> String {
    if let token, token != rejected, stoppedReason == nil { return token }
    guard canRenew else {
      let reason = MatrixTransportError.tokenRejected(userID: configuration.userID, detail: "M_UNKNOWN_TOKEN")
      stop(reason: reason.description)
      throw reason
    }
    do {
      try await login()
    } catch {
      stop(reason: "\(error)")
      throw error
    }
    guard let token else { throw MatrixTransportError.loginFailed(userID: configuration.userID, detail: "no token") }
    return token
  }

  func stop(reason: String) {
    stoppedReason = reason
  }

  private func login() async throws {
    guard let password = configuration.password, !password.isEmpty else {
      throw MatrixTransportError.tokenRejected(userID: configuration.userID, detail: "no password configured")
    }
    let deviceID = try await stableDeviceID()
    let response: MatrixLoginResponse
    do {
      response = try await client.login(
        user: configuration.userID, password: password, deviceID: deviceID, deviceName: configuration.deviceName)
    } catch MatrixClientError.api(let error) where !error.isRateLimited && !error.isServerError {
      throw MatrixTransportError.loginFailed(userID: configuration.userID, detail: error.description)
    }
    guard response.userID == configuration.userID else {
      throw MatrixTransportError.wrongAccount(configured: configuration.userID, actual: response.userID)
    }
    token = response.accessToken
    stoppedReason = nil
    try await store.setValue(response.accessToken, for: MatrixStateKey.accessToken)
    try await store.setValue(response.deviceID, for: MatrixStateKey.deviceID)
    logger.info("logged in", metadata: ["user": "\(response.userID)", "device": "\(response.deviceID)"])
  }

  /// The configured device id, else the one stored at the first login, else a new one (stored before use, so a
  /// crash during login does not leave a stray device behind on the next attempt).
  private func stableDeviceID() async throws -> String {
    if let configured = configuration.deviceID, !configured.isEmpty { return configured }
    if let stored = try await store.value(for: MatrixStateKey.deviceID), !stored.isEmpty { return stored }
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let generated = "AWFULBOT" + String((0..<8).map { _ in letters.randomElement()! })
    try await store.setValue(generated, for: MatrixStateKey.deviceID)
    return generated
  }
}
