import AwfulBotTestKit
import ChatBridge
import FakeForum
import ForumModel
import Foundation
import MatrixCrypto
import Testing

@testable import MatrixTransport

/// Pictures in relays (issue 34): what the bytes are, the limits on fetching them, and the encrypted attachment,
/// against the emulator's `/images/` on loopback.
@Suite("pictures for Matrix rooms")
struct MatrixImageTests {
  @Test("the type and size come from the bytes: PNG, GIF, JPEG and WebP headers; a page named .jpg is no picture")
  func sniffing() {
    #expect(ImageSniffer.sniff(FakeImages.desk) == .init(mimeType: "image/png", width: 320, height: 240))
    #expect(ImageSniffer.sniff(FakeImages.cat) == .init(mimeType: "image/gif", width: 48, height: 48))
    #expect(ImageSniffer.sniff(FakeImages.huge) == .init(mimeType: "image/png", width: 20_000, height: 20_000))
    #expect(ImageSniffer.sniff(FakeImages.file(named: "fake.jpg")!.bytes) == nil)
    // A JPEG: SOI, an APP0 segment, then SOF0 with height 480 and width 640.
    let jpeg: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
      + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03] + [UInt8](repeating: 0, count: 12)
    #expect(ImageSniffer.sniff(jpeg) == .init(mimeType: "image/jpeg", width: 640, height: 480))
    // A WebP with a VP8X header: width and height less one, 24-bit little-endian.
    let webp: [UInt8] =
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
      + [0x3F, 0x01, 0x00, 0xEF, 0x00, 0x00]
    #expect(ImageSniffer.sniff(webp) == .init(mimeType: "image/webp", width: 320, height: 240))
    #expect(ImageSniffer.sniff(Array("GIF89a".utf8)) == nil, "too short to measure")
  }

  @Test("private, loopback and link-local addresses are refused, in IPv4, IPv6 and IPv4 inside IPv6")
  func addresses() {
    for address in [
      "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
      "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    ] {
      #expect(NetworkAddressGuard.isPrivate(address), "\(address)")
    }
    for address in ["8.8.8.8", "172.32.0.1", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"] {
      #expect(!NetworkAddressGuard.isPrivate(address), "\(address)")
    }
    if case .privateAddress = NetworkAddressGuard.verdict(host: "localhost") {
    } else {
      Issue.record("localhost must resolve to a local address")
    }
    #expect(NetworkAddressGuard.verdict(host: "127.0.0.1") == .privateAddress("127.0.0.1"))
    #expect(NetworkAddressGuard.verdict(host: "no-such-host.invalid") == .unresolved)
  }

  @Test("an encrypted attachment decrypts to the picture with its key; the ciphertext is not the picture")
  func encryptedAttachment() throws {
    let attachment = try EncryptedAttachment.encrypt(FakeImages.desk)
    #expect(attachment.ciphertext != FakeImages.desk)
    #expect(attachment.ciphertext.count == FakeImages.desk.count)
    let file = attachment.fileObject(url: "mxc://example.org/abc")
    #expect(file["key"]?["alg"] == "A256CTR")
    #expect(file["v"] == "v2")
    #expect(file["iv"]?.stringValue?.count == 22, "16 bytes, unpadded base64")
    #expect(try EncryptedAttachment.decrypt(attachment.ciphertext, file: file) == FakeImages.desk)
    var tampered = attachment.ciphertext
    tampered[0] ^= 1
    #expect(throws: MatrixEncryptionError.self) { try EncryptedAttachment.decrypt(tampered, file: file) }
    let other = try EncryptedAttachment.encrypt(FakeImages.desk)
    #expect(other.ciphertext != attachment.ciphertext, "a fresh key and IV each time")
  }

  @Test("fetching within the limits: a picture, too many pixels, too many bytes, not a picture, gone, refused")
  func fetching() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
    let base = try await server.start().absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    defer { Task { await server.stop() } }
    let fetcher = ImageFetcher(settings: MatrixImageSettings(allowPrivateNetworks: true))
    let desk = try await fetcher.fetch("\(base)/images/desk.png")
    #expect(desk.bytes == FakeImages.desk)
    #expect(desk.image == .init(mimeType: "image/png", width: 320, height: 240))
    #expect(try await fetcher.fetch("\(base)/images/cat.gif").image.mimeType == "image/gif")

    func failure(_ name: String, _ fetcher: ImageFetcher = fetcher) async -> ImageFetcher.Failure? {
      do {
        _ = try await fetcher.fetch("\(base)/images/\(name)")
        return nil
      } catch {
        return error
      }
    }
    #expect(await failure("huge.png") == .tooLarge("20000×20000 pixels, more than the 16777216 allowed"))
    let big = await failure("big.png")
    #expect(big == .tooLarge("\(FakeImages.big.count) bytes, more than the 5242880 allowed"))
    #expect(await failure("fake.jpg") == .notAPicture)
    #expect(await failure("missing.png") == .unavailable("the server answered 404"))
    let strict = ImageFetcher(settings: MatrixImageSettings())
    #expect(await failure("desk.png", strict) == .refused("127.0.0.1 is a private or local address (127.0.0.1)"))
    let small = await failure(
      "desk.png", ImageFetcher(settings: MatrixImageSettings(maxBytes: 1_000, allowPrivateNetworks: true)))
    #expect(small == .tooLarge("\(FakeImages.desk.count) bytes, more than the 1000 allowed"))
  }

  @Test("a download is kept briefly for the other kind of room: by where it came from, four at most, ten minutes")
  func recentDownloads() throws {
    var recent = MatrixRecentDownloads()
    let start = ContinuousClock.now
    let desk = ImageFetcher.Fetched(bytes: FakeImages.desk, image: try #require(ImageSniffer.sniff(FakeImages.desk)))
    recent.keep(desk, from: "attachment:7", now: start)
    #expect(recent.fetched(from: "attachment:7", now: start + .seconds(30))?.bytes == FakeImages.desk)
    #expect(recent.fetched(from: "attachment:8", now: start + .seconds(30)) == nil)
    #expect(recent.fetched(from: "attachment:7", now: start + .seconds(601)) == nil, "gone after ten minutes")

    for number in 1...5 { recent.keep(desk, from: "https://i.example.com/\(number).png", now: start) }
    #expect(recent.fetched(from: "https://i.example.com/1.png", now: start) == nil, "the oldest of five went")
    #expect(recent.fetched(from: "https://i.example.com/5.png", now: start) != nil)
  }

  @Test("the pictures of a post, in order, from quotes and lists too, never smilies")
  func picturesOfAPost() {
    let body: [RichText] = [
      .text("look"), .image(url: "https://i.example/a.png"),
      .quote(author: "x", postID: nil, [.image(url: "https://i.example/b.gif")]),
      .list([[.thumbnail(url: "https://i.example/c.jpg")]]), .smilie(code: ":v:", url: "https://i.example/v.gif"),
    ]
    #expect(
      MatrixTransport.pictures(in: body) == [
        .init(url: "https://i.example/a.png", thumbnail: false),
        .init(url: "https://i.example/b.gif", thumbnail: false),
        .init(url: "https://i.example/c.jpg", thumbnail: true),
      ])
    #expect(
      MatrixTransport.annotated(body, notShown: ["https://i.example/b.gif": "too large"]) == [
        .text("look"), .image(url: "https://i.example/a.png"),
        .quote(
          author: "x", postID: nil,
          [.image(url: "https://i.example/b.gif"), .text(" (picture not shown: too large)")]),
        .list([[.thumbnail(url: "https://i.example/c.jpg")]]), .smilie(code: ":v:", url: "https://i.example/v.gif"),
      ])
    #expect(MatrixTransport.thumbnailSize(width: 1000, height: 500) == (200, 100))
    #expect(MatrixTransport.thumbnailSize(width: 300, height: 1200) == (50, 200))
    #expect(MatrixTransport.thumbnailSize(width: 120, height: 80) == (120, 80), "a small picture is not grown")
    #expect(ImageFetcher.Failure.overBudget(120).roomReason == "too many pictures this hour")
    #expect(MatrixTransport.fileName(type: "image/png") == "image.png")
    #expect(MatrixTransport.fileName(type: "image/gif") == "image.gif")
    #expect(MatrixTransport.fileName(type: "image/@room") == "image.bin", "only letters and digits from the type")
  }
}
