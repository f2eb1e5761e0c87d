import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Why a connection failed or ended, in words an operator can act on: the reason `/readyz` and `status` show
/// (`reconnecting (connection refused)`) and what `awfulbot check` turns into a fix. Never carries a secret: the texts
/// are the server's own messages and the transport's descriptions of network errors.
package enum IRCConnectionFailure: Sendable, Hashable, CustomStringConvertible {
  /// Nothing listens on the port (RST to the SYN).
  case refused
  /// No TCP connection within `connectTimeoutSeconds`.
  case connectTimedOut(seconds: Double)
  /// The host name does not resolve.
  case unresolved(host: String)
  /// The TLS handshake failed (an unknown CA, a certificate for another name, a plain-text port).
  case tlsHandshake(String)
  /// The TLS context could not be built from the configured files (CA, client certificate, key).
  case tlsSetup(String)
  /// SASL failed: 902 (nick locked), 904 (wrong credentials), 905 (too long), 906 (aborted), 908 (mechanism not
  /// offered).
  case saslFailed(numeric: Int, message: String)
  /// SASL is configured but the server offers none (no `sasl` capability, no CAP at all, the capability refused),
  /// or not the configured mechanism; `offered` lists the mechanisms it does offer.
  case saslUnavailable(mechanism: String, offered: String?)
  /// The server refused the client before registration: 463 (host not allowed), 464 (server password), 465 (banned).
  case rejected(numeric: Int, message: String)
  /// `ERROR :reason`: the server closed the link and said why.
  case serverError(String)
  /// No 001 within `registrationTimeoutSeconds`.
  case registrationTimedOut(seconds: Double)
  /// Our keepalive PING went unanswered.
  case pingTimedOut(seconds: Double)
  /// The connection ended without a word (EOF).
  case closed
  /// Anything else (a socket error), described.
  case other(String)

  package var description: String {
    switch self {
    case .refused: "connection refused"
    case .connectTimedOut(let seconds): "no TCP connection within \(Self.seconds(seconds))"
    case .unresolved(let host): "cannot resolve \(host)"
    case .tlsHandshake(let reason): "TLS handshake failed: \(reason)"
    case .tlsSetup(let reason): "cannot set up TLS: \(reason)"
    case .saslFailed(let numeric, let message): "SASL failed (\(numeric)): \(message)"
    case .saslUnavailable(let mechanism, let offered):
      if let offered, !offered.isEmpty {
        "the server offers SASL \(offered) but not \(mechanism)"
      } else {
        "the server offers no SASL"
      }
    case .rejected(let numeric, let message): "refused by the server (\(numeric)): \(message)"
    case .serverError(let reason): "closed by the server: \(reason)"
    case .registrationTimedOut(let seconds): "no welcome (001) within \(Self.seconds(seconds))"
    case .pingTimedOut(let seconds): "no PONG within \(Self.seconds(seconds))"
    case .closed: "the server closed the connection"
    case .other(let reason): reason
    }
  }

  /// Reads a connect or channel error from NIO / NIOSSL.
  init(_ error: any Error, host: String) {
    switch error {
    case let error as NIOConnectionError:
      if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
        self = .unresolved(host: host)
      } else if let first = error.connectionErrors.first?.error {
        self = IRCConnectionFailure(first, host: host)
      } else {
        self = .other("\(error)")
      }
    case let error as IOError where error.errnoCode == ECONNREFUSED:
      self = .refused
    case ChannelError.connectTimeout(let amount):
      self = .connectTimedOut(seconds: Double(amount.nanoseconds) / 1_000_000_000)
    case NIOSSLError.handshakeFailed(let reason):
      self = .tlsHandshake(Self.handshakeReason(reason))
    case let error as NIOSSLExtraError where error == .failedToValidateHostname:
      self = .tlsHandshake("the server's certificate is not for \(host)")
    case let error as NIOSSLError:
      self = .tlsHandshake("\(error)")
    default:
      self = .other("\(error)")
    }
  }

  /// BoringSSL's error stack, shortened to the part a person recognises.
  private static func handshakeReason(_ error: BoringSSLError) -> String {
    let text = "\(error)"
    if text.contains("CERTIFICATE_VERIFY_FAILED") {
      return "the server's certificate is not signed by a trusted CA"
    }
    if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG") {
      return "the server does not speak TLS on this port"
    }
    return text
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
