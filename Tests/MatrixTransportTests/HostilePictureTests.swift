import AwfulBotTestKit
import FakeForum
import Foundation
import Synchronization
import Testing

@testable import MatrixTransport

/// Issue 43: a picture is untrusted input. Its header may claim any size, its host may take its time, send the
/// fetcher round or answer DNS one way for the check and another for the connection, and its address is the
/// poster's choice. None of it may stop the bot, reach inside the network, or say more in the room than a fixed
/// reason.
@Suite("hostile pictures")
struct HostilePictureTests {
  @Test("absurd sizes in a PNG, a JPEG and a WebP header are too large, and no size can overflow the pixel check")
  func absurdSizes() throws {
    let png = try #require(ImageSniffer.sniff(FakeImages.absurdPNG))
    #expect(FakeImages.absurdPNG.count == 33)
    #expect(png.width == 4_294_967_295 && png.height == 4_294_967_295)
    #expect(png.excess(maxPixels: 16_777_216) == "4294967295×4294967295 pixels, a side over 65535")
    let jpeg = try #require(ImageSniffer.sniff(FakeImages.absurdJPEG))
    #expect(jpeg.width == 65_535 && jpeg.height == 65_535)
    #expect(jpeg.excess(maxPixels: 16_777_216) == "65535×65535 pixels, more than the 16777216 allowed")
    let webp = try #require(ImageSniffer.sniff(FakeImages.absurdWebP))
    #expect(webp.excess(maxPixels: 16_777_216) == "16777216×16777216 pixels, a side over 65535")
    // The product itself never traps, whatever a future sniffer reads.
    let extreme = ImageSniffer.Image(mimeType: "image/png", width: Int.max, height: Int.max)
    #expect(extreme.excess(maxPixels: .max) != nil)
    let edge = ImageSniffer.Image(mimeType: "image/png", width: 65_535, height: 65_535)
    #expect(edge.excess(maxPixels: .max) == nil, "65,535 a side is the limit, not over it")
    #expect(ImageSniffer.Image(mimeType: "image/png", width: 4096, height: 4096).excess(maxPixels: 4096 * 4096) == nil)
    #expect(MatrixImageSettings().maxPixels == 4096 * 4096)
  }

  @Test(
    "the ranges a first check missed are private: NAT64 and 6to4 judged by their IPv4, site-local, IETF, benchmarks")
  func moreRanges() {
    for address in [
      "64:ff9b::7f00:1", "64:ff9b::a00:5", "64:ff9b:1::1", "2002:7f00:1::1", "2002:a00:5::", "2002:c0a8:101::1",
      "fec0::1", "192.0.0.8", "198.18.0.1", "198.19.255.254", "192.88.99.1", "2001:db8::1", "not an address",
    ] {
      #expect(NetworkAddressGuard.isPrivate(address), "\(address)")
    }
    for address in ["64:ff9b::808:808", "2002:808:808::1", "198.20.0.1", "192.0.1.1", "203.0.113.9"] {
      #expect(!NetworkAddressGuard.isPrivate(address), "\(address)")
    }
  }

  @Test("a DNS answer that changes after the check is never asked for: the fetch connects to the checked address")
  func rebinding() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let base = try await server.start()
    defer { Task { await server.stop() } }
    let port = try #require(base.port)
    // The resolver the test controls: a public answer for the check, loopback for whoever asks again. The system's
    // own resolver answers loopback for `localhost` too, so a fetcher that resolves a second time reaches the
    // emulator. TEST-NET-3 (203.0.113.0/24) is reserved for documentation: a connection there reaches no one.
    let lookups = Mutex(0)
    var fetcher = ImageFetcher(settings: MatrixImageSettings(timeoutSeconds: 2, allowPrivateNetworks: false))
    fetcher.resolve = { _ in
      lookups.withLock { count in
        count += 1
        return count == 1 ? ["203.0.113.9"] : ["127.0.0.1"]
      }
    }
    await server.state.clearRequests()
    var failure: ImageFetcher.Failure?
    do {
      _ = try await fetcher.fetch("http://localhost:\(port)/images/desk.png")
    } catch {
      failure = error
    }
    #expect(failure != nil, "the checked address answers nothing")
    #expect(lookups.withLock { $0 } == 1, "one lookup per hop")
    let reached = await server.state.requests().filter { $0.path.hasPrefix("/images/") }
    #expect(reached.isEmpty, "nothing reached loopback: \(reached.map(\.path))")
    // A private answer is refused before any connection, and the room reads a fixed reason.
    fetcher.resolve = { _ in ["10.0.0.5"] }
    do {
      _ = try await fetcher.fetch("http://cache.example:6379/x.png")
      Issue.record("a private address was fetched")
    } catch {
      #expect(error == .refused("cache.example is a private or local address (10.0.0.5)"))
      #expect(error.roomReason == "its address is not allowed")
    }
  }

  @Test("one deadline covers every hop; four redirects are too many; the room reads fixed reasons only")
  func deadlineAndRedirects() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let base = try await server.start().absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    defer { Task { await server.stop() } }
    // Generous where the test expects a picture (a loaded machine must not fail it), short where it expects none.
    let patient = ImageFetcher(settings: MatrixImageSettings(timeoutSeconds: 30, allowPrivateNetworks: true))
    let fetcher = ImageFetcher(settings: MatrixImageSettings(timeoutSeconds: 2.5, allowPrivateNetworks: true))
    // Three redirects are followed…
    #expect(try await patient.fetch("\(base)/images/redirect/3/desk.png").bytes == FakeImages.desk)
    // …a fourth is not.
    do {
      _ = try await patient.fetch("\(base)/images/redirect/4/desk.png")
      Issue.record("four redirects were followed")
    } catch {
      #expect(error == .unavailable("more than 3 redirects"))
      #expect(error.roomReason == "its server did not give it")
    }
    // Each hop takes one second, each within the timeout, but not the three together: the deadline is the
    // picture's, not the hop's.
    do {
      _ = try await fetcher.fetch("\(base)/images/slowredirect/3/desk.png")
      Issue.record("three slow hops were waited out one by one")
    } catch {
      guard case .timedOut = error else { throw error }
      #expect(error.roomReason == "its server took too long")
    }
    // A host that never answers costs the deadline, and the room reads why without the address.
    let stalling = try await StallingHTTPServer.start(answering: "")
    defer { Task { await stalling.stop() } }
    do {
      _ = try await fetcher.fetch("http://127.0.0.1:\(stalling.port)/x.png")
      Issue.record("a silent host gave a picture")
    } catch {
      guard case .timedOut = error else { throw error }
    }
    let causes: [ImageFetcher.Failure] = [
      .refused("10.0.0.5:6379"), .notFound("a.example"), .unavailable("connection refused (10.0.0.5:6379)"),
      .timedOut("10 s"), .tooLarge("9×9"), .notAPicture, .overBudget(120),
    ]
    let reasons = Set(causes.map(\.roomReason))
    #expect(reasons.count == causes.count, "each cause its own sentence")
    #expect(reasons.allSatisfy { !$0.contains(where: \.isNumber) }, "no address, port or limit reaches the room")
  }

  @Test("a failed address is remembered for an hour, bounded; the hour's budget is not")
  func failureMemory() {
    let memory = PictureFailureMemory()
    let start = ContinuousClock.now
    memory.remember(.timedOut("10 s"), for: "https://slow.example/a.png", now: start)
    memory.remember(.overBudget(120), for: "https://fine.example/b.png", now: start)
    #expect(memory.failure(for: "https://slow.example/a.png", now: start + .seconds(3599)) == .timedOut("10 s"))
    #expect(memory.failure(for: "https://slow.example/a.png", now: start + .seconds(3601)) == nil)
    #expect(memory.failure(for: "https://fine.example/b.png", now: start) == nil)
    for number in 0...PictureFailureMemory.capacity {
      memory.remember(.notAPicture, for: "https://x.example/\(number)", now: start + .milliseconds(number))
    }
    #expect(memory.failure(for: "https://x.example/0", now: start + .seconds(2)) == nil, "the oldest went first")
    #expect(memory.failure(for: "https://x.example/1000", now: start + .seconds(2)) == .notAPicture)
  }
}
