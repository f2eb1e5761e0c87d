import ChatBridge
import MatrixCrypto

/// What the transport is doing, for `status` and health checks.
package enum MatrixTransportStatus: Sendable, Hashable, CustomStringConvertible {
  /// Not yet signed in, or signed in but the first sync has not come back yet.
  case starting
  /// Signed in, and the last sync succeeded.
  case connected(userID: String)
  /// A sync failed; retrying after a backoff.
  case reconnecting(reason: String)
  /// Gave up: a rejected token without a password, a failed start. Sends fail until restarted.
  case stopped(reason: String)

  package var description: String {
    switch self {
    case .starting: "starting"
    case .connected(let user): "connected as \(user)"
    case .reconnecting(let reason): "reconnecting (\(reason))"
    case .stopped(let reason): "stopped: \(reason)"
    }
  }

  /// The state every transport reports (`ChatEvent.connection`).
  package var connectionState: ConnectionState {
    switch self {
    case .starting: .connecting
    case .connected: .connected
    case .reconnecting(let reason): .retrying(reason: reason)
    case .stopped(let reason): .stopped(reason: reason)
    }
  }

  /// nil when the last sync succeeded; otherwise why the transport is not usable right now (`connecting`,
  /// `reconnecting (<reason>)`, `stopped: <reason>`).
  package var connectionProblem: String? { connectionState.problem }
}

/// The bot's own membership changed in a room: the engine's `ChatEventService` pauses the room on kick and ban (it is
/// resumed only by a `resume` from whoever lets the bot back in).
package struct MatrixMembershipChange: Sendable, Hashable {
  package enum Kind: String, Sendable, Hashable {
    case joined
    case left
    case kicked
    case banned
  }

  package var room: String
  package var kind: Kind
  /// Who did it (the kicker or banner; the bot itself for joins and leaves).
  package var by: String?
  package var reason: String?

  package init(room: String, kind: Kind, by: String? = nil, reason: String? = nil) {
    self.room = room
    self.kind = kind
    self.by = by
    self.reason = reason
  }
}

/// Why the transport could not start. The description is the sentence the operator sees.
package enum MatrixTransportError: ChatTransportStartupError, Sendable, Hashable, CustomStringConvertible {
  case homeserverUnreachable(homeserver: String, reason: String)
  case notAMatrixHomeserver(homeserver: String, reason: String)
  case tokenRejected(userID: String, detail: String)
  case loginFailed(userID: String, detail: String)
  case wrongAccount(configured: String, actual: String)
  case invalidConfiguration([String])
  /// The bot's encryption identity cannot be set up (see `MatrixCrossSigningError`): the sentence says what to do.
  case encryptionIdentity(String)

  package var isPermanent: Bool { !mayPass }

  /// The cause may go away by itself (the homeserver comes back): worth trying again later.
  package var mayPass: Bool {
    switch self {
    case .homeserverUnreachable, .notAMatrixHomeserver: true
    case .tokenRejected, .loginFailed, .wrongAccount, .invalidConfiguration, .encryptionIdentity: false
    }
  }

  package var description: String {
    switch self {
    case .homeserverUnreachable(let homeserver, let reason):
      "cannot reach the Matrix homeserver \(homeserver): \(reason)"
    case .notAMatrixHomeserver(let homeserver, let reason):
      "\(homeserver) does not answer like a Matrix homeserver (/_matrix/client/versions: \(reason))"
    case .tokenRejected(let userID, let detail):
      "the homeserver rejected the access token of \(userID) (\(detail)); set a new accessToken or a password"
    case .loginFailed(let userID, let detail):
      "login as \(userID) failed (\(detail)); check the password"
    case .wrongAccount(let configured, let actual):
      "the access token belongs to \(actual), but the config says \(configured)"
    case .invalidConfiguration(let errors):
      errors.joined(separator: "; ")
    case .encryptionIdentity(let reason):
      "end-to-end encryption cannot start: \(reason)"
    }
  }
}
