import AsyncHTTPClient
import ForumModel
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Downloads one picture of a post within the limits (`MatrixImageSettings`). Everything about it is untrusted: the
/// address (anyone on the forum writes it), its DNS answers, its server's answers and its bytes.
///
/// - http(s) only; every host's addresses must be public (unless `allowPrivateNetworks`), and the connection goes to
///   the address that was checked and to no other (a client per hop with `dnsOverride`): a DNS answer that changes
///   between the check and the connection (rebinding to loopback) is never asked for.
/// - Redirects are followed here, at most `maximumRedirects`, each hop checked the same way.
/// - One deadline (`timeoutSeconds`) covers the whole picture: every lookup, every hop and the body.
/// - At most `maxBytes`, and only bytes that are a picture it can measure, within `maxPixels` (see `ImageSniffer`).
struct ImageFetcher: Sendable {
  let settings: MatrixImageSettings
  /// The host's addresses, as text (blocking; run on NIO's thread pool). `NetworkAddressGuard.resolve` but in tests.
  var resolve: @Sendable (String) -> [String] = NetworkAddressGuard.resolve

  /// Why a picture stays a link. `description` (with addresses, codes and limits) is for the log; the room reads
  /// `roomReason`, one of a few fixed sentences, so a room cannot be used to probe what the bot's network holds.
  enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    case refused(String)
    case notFound(String)
    case unavailable(String)
    case timedOut(String)
    case tooLarge(String)
    case notAPicture
    /// The hour's downloads (`perHour`) are used up.
    case overBudget(Int)
    /// The forum answered a request for one of its own attachments with a page (deleted, an error, a login page).
    case forumRefused(String)
    /// The forum could not be asked for one of its own attachments (unreachable, behind a wall, no session).
    case forumUnavailable(String)

    var description: String {
      switch self {
      case .refused(let reason), .notFound(let reason), .unavailable(let reason), .timedOut(let reason),
        .tooLarge(let reason), .forumRefused(let reason), .forumUnavailable(let reason):
        reason
      case .notAPicture: "not a picture"
      case .overBudget(let limit): "the hour's \(limit) picture downloads are used up"
      }
    }

    /// What the room reads beside the picture's link.
    var roomReason: String {
      switch self {
      case .refused: "its address is not allowed"
      case .notFound: "its server could not be found"
      case .unavailable: "its server did not give it"
      case .timedOut: "its server took too long"
      case .tooLarge: "too large"
      case .notAPicture: "not a picture"
      case .overBudget: "too many pictures this hour"
      case .forumRefused: "the forum would not give it"
      case .forumUnavailable: "the forum could not be reached"
      }
    }

    /// Whether trying the same address again within the hour is worth nothing (see `PictureFailureMemory`). The
    /// hour's budget is the bot's own state, not the address's, and so is whether the forum can be reached now.
    var isRemembered: Bool {
      switch self {
      case .overBudget, .forumUnavailable: false
      default: true
      }
    }
  }

  struct Fetched: Sendable {
    var bytes: [UInt8]
    var image: ImageSniffer.Image
  }

  static let maximumRedirects = 3

  func fetch(_ address: String) async throws(Failure) -> Fetched {
    let deadline = ContinuousClock.now + Clamp.seconds(settings.timeoutSeconds, atMost: Clamp.day)
    var current = address
    for _ in 0...Self.maximumRedirects {
      guard let url = URL(string: current), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        let host = url.host, !host.isEmpty
      else { throw .refused("not an http(s) address: \(current)") }
      var pinned: [String: String] = [:]
      if !settings.allowPrivateNetworks {
        let address = try await checkedAddress(of: host, before: deadline)
        // Keyed as AsyncHTTPClient reads the host, and lowercased in case it ever reads it so.
        pinned[host] = address
        pinned[host.lowercased()] = address
      }
      switch try await download(url, connectingTo: pinned, before: deadline) {
      case .redirect(let location):
        guard let next = URL(string: location, relativeTo: url)?.absoluteURL.absoluteString else {
          throw .unavailable("a redirect to nowhere (\(location))")
        }
        current = next
      case .bytes(let bytes):
        guard let image = ImageSniffer.sniff(bytes) else { throw .notAPicture }
        if let excess = image.excess(maxPixels: settings.maxPixels) { throw .tooLarge(excess) }
        return Fetched(bytes: bytes, image: image)
      }
    }
    throw .unavailable("more than \(Self.maximumRedirects) redirects")
  }

  /// The one address of `host` the connection may go to: resolved once, every answer judged, the first kept.
  private func checkedAddress(of host: String, before deadline: ContinuousClock.Instant) async throws(Failure)
    -> String
  {
    guard let addresses = await lookUp(host, before: deadline) else {
      throw .timedOut("no DNS answer for \(host) before the deadline")
    }
    switch NetworkAddressGuard.verdict(addresses: addresses) {
    case .unresolved: throw .notFound("\(host) did not resolve")
    case .privateAddress(let local): throw .refused("\(host) is a private or local address (\(local))")
    case .publicAddresses(let all): return all[0]
    }
  }

  /// `resolve` on NIO's blocking-IO pool (`getaddrinfo` can block for seconds, and a cooperative thread must not
  /// wait that long), given up at the deadline: nil then. The lookup itself cannot be cancelled; its late answer
  /// is dropped.
  private func lookUp(_ host: String, before deadline: ContinuousClock.Instant) async -> [String]? {
    let remaining = deadline - .now
    guard remaining > .zero else { return nil }
    let resolve = self.resolve
    let answered = Mutex(false)
    return await withCheckedContinuation { (continuation: CheckedContinuation<[String]?, Never>) in
      @Sendable func answer(_ addresses: [String]?) {
        let first = answered.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: addresses) }
      }
      let timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(
        in: .milliseconds(remaining.wholeMilliseconds)
      ) { answer(nil) }
      NIOThreadPool.singleton.submit { state in
        guard case .active = state else { return answer([]) }
        let addresses = resolve(host)
        timer.cancel()
        answer(addresses)
      }
    }
  }

  private enum Outcome: Sendable {
    case redirect(String)
    case bytes([UInt8])
  }

  /// One hop, before the deadline, on a client of its own that connects to `pinned` addresses only (AsyncHTTPClient
  /// keeps the host name for TLS and the `Host` header). The client follows no redirect itself.
  private func download(_ url: URL, connectingTo pinned: [String: String], before deadline: ContinuousClock.Instant)
    async throws(Failure) -> Outcome
  {
    let remaining = deadline - .now
    guard remaining > .zero else { throw .timedOut("no picture within \(settings.timeoutSeconds) s") }
    var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled)
    configuration.dnsOverride = pinned
    configuration.timeout = .init(
      connect: .milliseconds(remaining.wholeMilliseconds), read: .milliseconds(remaining.wholeMilliseconds))
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let outcome: Result<Outcome, Failure>
    do throws(Failure) {
      outcome = .success(try await download(url, on: client, remaining: remaining, deadline: deadline))
    } catch {
      outcome = .failure(error)
    }
    try? await client.shutdown()
    return try outcome.get()
  }

  private func download(
    _ url: URL, on client: HTTPClient, remaining: Duration, deadline: ContinuousClock.Instant
  ) async throws(Failure) -> Outcome {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "User-Agent", value: "awfulbot")
    request.headers.add(name: "Accept", value: "image/*")
    let prepared = request
    let limit = settings.maxBytes
    let seconds = settings.timeoutSeconds
    do {
      return try await withThrowingTaskGroup(of: Outcome?.self) { group in
        group.addTask {
          let response = try await client.execute(
            prepared, deadline: .now() + .milliseconds(remaining.wholeMilliseconds))
          if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
            return .redirect(location)
          }
          guard response.status.code == 200 else {
            throw Failure.unavailable("the server answered \(response.status.code)")
          }
          if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            throw Failure.tooLarge("\(length) bytes, more than the \(limit) allowed")
          }
          do {
            return .bytes(Array(try await response.body.collect(upTo: limit).readableBytesView))
          } catch is NIOTooManyBytesError {
            throw Failure.tooLarge("more than the \(limit) bytes allowed")
          }
        }
        // The body is read under the same deadline: a server that sends a byte a minute does not hold the room.
        group.addTask {
          try await Task.sleep(until: deadline)
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let outcome = first else {
          throw Failure.timedOut("no picture within \(seconds) s")
        }
        return outcome
      }
    } catch let failure as Failure {
      throw failure
    } catch let error as HTTPClientError
      where error == .deadlineExceeded || error == .connectTimeout || error == .readTimeout
    {
      throw .timedOut("no picture within \(seconds) s (\(error))")
    } catch {
      throw .unavailable("could not be fetched: \(error)")
    }
  }
}
