import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// Downloads one picture of a post within the limits (`MatrixImageSettings`): http(s) only, no private address unless
/// allowed (checked again at every redirect, which it follows itself), at most `maxBytes`, within the timeout, and
/// only bytes that are a picture it can measure, no larger than `maxPixels`.
struct ImageFetcher: Sendable {
  let settings: MatrixImageSettings

  /// Why a picture stays a link, in a few words.
  enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    case refused(String)
    case unavailable(String)
    case tooLarge(String)
    case notAPicture
    /// The hour's downloads (`perHour`) are used up.
    case overBudget(Int)

    var description: String {
      switch self {
      case .refused(let reason), .unavailable(let reason), .tooLarge(let reason): reason
      case .notAPicture: "not a picture"
      case .overBudget(let limit): "the hour's \(limit) picture downloads are used up"
      }
    }

    /// What the room reads beside the picture's link: the cause in a few words, without addresses or limits.
    var roomReason: String {
      switch self {
      case .refused: "its address is not allowed"
      case .unavailable(let reason): reason
      case .tooLarge: "too large"
      case .notAPicture: "not a picture"
      case .overBudget: "too many pictures this hour"
      }
    }
  }

  struct Fetched: Sendable {
    var bytes: [UInt8]
    var image: ImageSniffer.Image
  }

  /// Redirects are followed here, each hop checked: the client itself follows none.
  static let client = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
    configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled))
  static let maximumRedirects = 3

  func fetch(_ address: String) async throws(Failure) -> Fetched {
    var current = address
    for _ in 0...Self.maximumRedirects {
      guard let url = URL(string: current), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        let host = url.host, !host.isEmpty
      else { throw .refused("not an http(s) address") }
      if !settings.allowPrivateNetworks, let refusal = await Self.refusal(host: host) { throw refusal }
      let outcome = try await download(url)
      switch outcome {
      case .redirect(let location):
        guard let next = URL(string: location, relativeTo: url)?.absoluteURL.absoluteString else {
          throw .unavailable("a redirect to nowhere")
        }
        current = next
      case .bytes(let bytes):
        guard let image = ImageSniffer.sniff(bytes) else { throw .notAPicture }
        guard image.width * image.height <= settings.maxPixels else {
          throw .tooLarge("\(image.width)×\(image.height) pixels, more than the \(settings.maxPixels) allowed")
        }
        return Fetched(bytes: bytes, image: image)
      }
    }
    throw .unavailable("more than \(Self.maximumRedirects) redirects")
  }

  /// `NetworkAddressGuard.verdict`, resolved on NIO's blocking-IO pool: `getaddrinfo` can block for seconds, and a
  /// cooperative thread (there are two here) must not wait that long.
  private static func refusal(host: String) async -> Failure? {
    let verdict =
      (try? await NIOThreadPool.singleton.runIfActive { NetworkAddressGuard.verdict(host: host) }) ?? .unresolved
    switch verdict {
    case .unresolved: return .unavailable("its server could not be found")
    case .privateAddress(let local): return .refused("\(host) is a private or local address (\(local))")
    case .publicAddresses: return nil
    }
  }

  private enum Outcome {
    case redirect(String)
    case bytes([UInt8])
  }

  private func download(_ url: URL) async throws(Failure) -> Outcome {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "User-Agent", value: "awfulbot")
    request.headers.add(name: "Accept", value: "image/*")
    let prepared = request
    let limit = settings.maxBytes
    let timeout = Duration.milliseconds(Int64(settings.timeoutSeconds * 1000))
    do {
      return try await withThrowingTaskGroup(of: Outcome?.self) { group in
        group.addTask {
          let response = try await Self.client.execute(prepared, timeout: .milliseconds(timeout.milliseconds))
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
        group.addTask {
          try await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let outcome = first else {
          throw Failure.unavailable("no picture within \(settings.timeoutSeconds) s")
        }
        return outcome
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw .unavailable("could not be fetched (\(error))")
    }
  }
}
