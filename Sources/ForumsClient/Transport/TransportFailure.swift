import AsyncHTTPClient
import ForumModel
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps the errors of AsyncHTTPClient and NIO to the client's typed errors.
package enum TransportFailure {
  package static func clientError(for error: any Error, requestTimeout: Duration) -> ForumsClientError {
    if let error = error as? ForumsClientError { return error }
    if let tooMany = error as? NIOTooManyBytesError {
      return .bodyTooLarge(limit: tooMany.maxBytes ?? 0)
    }
    if error is DeadlineExceeded || isTimeout(error) {
      return .timedOut(seconds: seconds(requestTimeout))
    }
    return .transport(String(describing: error))
  }

  /// Whether the error happened before any byte of the request could reach the forum, so that even a request that
  /// must not be repeated (posting a reply) can safely be sent again.
  package static func connectionWasNeverEstablished(_ error: any Error) -> Bool {
    if let error = error as? HTTPClientError {
      return error == .connectTimeout || error == .getConnectionFromPoolTimeout
    }
    if let error = error as? ChannelError, case .connectTimeout = error { return true }
    if let error = error as? IOError { return error.errnoCode == ECONNREFUSED }
    return String(reflecting: type(of: error)).hasSuffix("NIOConnectionError")
  }

  /// Whether a failed exchange is worth repeating: connection problems are, timeouts and oversized bodies are not
  /// (a slow forum should not get more load, a huge page will be huge again).
  package static func isRetryable(_ error: any Error, isIdempotent: Bool) -> Bool {
    if error is ForumsClientError || error is NIOTooManyBytesError || error is DeadlineExceeded || isTimeout(error)
      || error is CancellationError
    {
      return false
    }
    return isIdempotent || connectionWasNeverEstablished(error)
  }

  private static func isTimeout(_ error: any Error) -> Bool {
    guard let error = error as? HTTPClientError else { return false }
    return error == .deadlineExceeded || error == .readTimeout || error == .writeTimeout
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
