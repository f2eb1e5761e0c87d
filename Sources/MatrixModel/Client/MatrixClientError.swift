import ForumModel
import Foundation

/// How a homeserver call failed. `api` is an answer from the homeserver (status plus the standard error body);
/// `network` means no answer (refused, reset, timed out); `invalidResponse` an answer that is not what the spec says.
package enum MatrixClientError: Error, Sendable, Hashable, CustomStringConvertible {
  case api(MatrixAPIError)
  case network(String)
  case invalidResponse(String)

  package var description: String {
    switch self {
    case .api(let error): error.description
    case .network(let reason): "homeserver unreachable: \(reason)"
    case .invalidResponse(let reason): "unexpected homeserver response: \(reason)"
    }
  }

  package var apiError: MatrixAPIError? {
    if case .api(let error) = self { return error }
    return nil
  }
}

/// A non-2xx answer: `{"errcode": "M_…", "error": "…", "retry_after_ms": …}` plus the status and `Retry-After`.
package struct MatrixAPIError: Error, Sendable, Hashable, CustomStringConvertible {
  package var status: Int
  package var errcode: String?
  package var message: String?
  /// The longer of `retry_after_ms` (body) and `Retry-After` (header), when either is present; at most a day.
  package var retryAfter: Duration?
  /// User-interactive auth (a 401 with `session` and `flows`): the session to answer, and the stages of each flow.
  package var authSession: String?
  package var authFlows: [[String]]

  package init(
    status: Int, errcode: String? = nil, message: String? = nil, retryAfter: Duration? = nil,
    authSession: String? = nil, authFlows: [[String]] = []
  ) {
    self.status = status
    self.errcode = errcode
    self.message = message
    self.retryAfter = retryAfter
    self.authSession = authSession
    self.authFlows = authFlows
  }

  /// The homeserver asks for user-interactive auth before it does what was asked.
  package var needsInteractiveAuth: Bool { status == 401 && authSession != nil && !isUnknownToken }

  package var isRateLimited: Bool { status == 429 || errcode == "M_LIMIT_EXCEEDED" }
  package var isUnknownToken: Bool { errcode == "M_UNKNOWN_TOKEN" || errcode == "M_MISSING_TOKEN" }
  package var isForbidden: Bool { errcode == "M_FORBIDDEN" }
  package var isServerError: Bool { status >= 500 }

  package var description: String {
    let code = errcode ?? "HTTP \(status)"
    guard let message, !message.isEmpty else { return code }
    return "\(code): \(message)"
  }

  /// Reads the standard error body; tolerates bodies that are not JSON (a proxy's HTML error page).
  package static func parse(status: Int, body: [UInt8], retryAfterHeader: String?) -> MatrixAPIError {
    struct Flow: Decodable {
      var stages: [String]?
    }
    /// A number, or nothing: a `retry_after_ms` that is a string, an object or out of range loses only itself, not
    /// the errcode beside it (which is what says "rate limited").
    struct LenientNumber: Decodable {
      var value: Double?
      init(from decoder: any Decoder) throws { value = try? decoder.singleValueContainer().decode(Double.self) }
    }
    struct Body: Decodable {
      var errcode: String?
      var error: String?
      var retry_after_ms: LenientNumber?
      var session: String?
      var flows: [Flow]?
    }
    let decoded = try? JSONNesting.decode(Body.self, from: Data(body))
    // Clamped to 0…a day: the homeserver's number (1e20, 1e308) never reaches a conversion that traps.
    let fromBody = decoded?.retry_after_ms?.value.map {
      Clamp.seconds($0 / 1000, atMost: RetryAfterHeader.maximumSeconds)
    }
    let fromHeader = retryAfterHeader.flatMap { parseRetryAfter($0) }
    let retryAfter = [fromBody, fromHeader].compactMap { $0 }.max()
    return MatrixAPIError(
      status: status, errcode: decoded?.errcode, message: decoded?.error, retryAfter: retryAfter,
      authSession: decoded?.session, authFlows: (decoded?.flows ?? []).map { $0.stages ?? [] })
  }

  /// `Retry-After` is either delay-seconds or an HTTP date; at most a day (`RetryAfterHeader.maximumSeconds`).
  package static func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
    RetryAfterHeader.seconds(value, now: now).map { Clamp.seconds($0, atMost: RetryAfterHeader.maximumSeconds) }
  }
}
