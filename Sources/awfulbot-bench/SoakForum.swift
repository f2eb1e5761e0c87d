import AsyncHTTPClient
import ChatBridge
import Foundation
import NIOCore

/// The emulator's admin API (`/_fake/`, docs/fake-forum.md) as the soak uses it: the forum activity, and the
/// request log that tells when the bot first read each source.
struct SoakForum: Sendable {
  let baseURL: URL

  /// The kinds of forum activity, each relayed to every room: a reply in a bookmarked thread, a new thread in the
  /// watched forum, a new announcement, a private message to the bot.
  enum Event: String, Sendable, CaseIterable {
    case post, thread, announcement, privateMessage = "pm"
  }

  /// The bot's bookmarked threads in the demo seed (3 600 004 is closed).
  static let bookmarkedThreads = [3_600_001, 3_600_002, 3_600_003]
  /// The Cholesterol Clubhouse: a forum no bookmarked thread is in, so its new threads are relayed only as such.
  static let watchedForum = 669
  static let posters = ["Pickled Tink", "Zoë Québec", "Majuju"]

  /// Makes event `number` of kind `event`, with its marker in the title and the text.
  func make(_ event: Event, number: Int, random: inout BenchRandom) async throws {
    let marker = SoakMarkers.marker(number)
    let author = Self.posters.randomElement(using: &random) ?? "Pickled Tink"
    let text = "\(marker): " + Self.filler(random: &random)
    switch event {
    case .post:
      let thread = Self.bookmarkedThreads.randomElement(using: &random) ?? Self.bookmarkedThreads[0]
      _ = try await call(
        .post, "posts", ["thread": .number(Double(thread)), "author": .string(author), "body": .string(text)])
    case .thread:
      _ = try await call(
        .post, "threads",
        [
          "forum": .number(Double(Self.watchedForum)), "title": .string("Soak thread \(marker)"),
          "author": .string(author), "body": .string(text),
        ])
    case .announcement:
      _ = try await call(
        .post, "announcements",
        ["title": .string("Soak announcement \(marker)"), "author": "angerbot", "body": .string(text)])
    case .privateMessage:
      _ = try await call(
        .post, "pms",
        ["to": "awfulbot", "from": .string(author), "title": .string("Soak question \(marker)"), "body": .string(text)])
    }
  }

  /// Whether the bot has read each of these paths at least once since the log was last cleared.
  func hasRequested(_ paths: [String]) async throws -> Bool {
    for path in paths {
      let log = try await call(.get, "requests?path=\(path)", nil)
      guard let entries = log.arrayValue ?? log["requests"]?.arrayValue, !entries.isEmpty else { return false }
    }
    return true
  }

  /// The emulator keeps every request in its log; the soak clears it so the emulator's own memory stays flat.
  func clearRequests() async throws {
    _ = try await call(.delete, "requests", nil)
  }

  /// A sentence or a few, so relays differ in length as real posts do.
  static func filler(random: inout BenchRandom) -> String {
    let sentences = [
      "Has anyone tried the new build yet?", "The cursor is the answer, as always.",
      "Ça marche très bien, merci ! 🎉", "Line one\nLine two with “curly quotes” — and an em dash.",
      "[b]Bold[/b] claims need [i]bold[/i] evidence.", "See https://example.com/awfulbot/soak for details.",
      "[spoiler]It was the cache all along.[/spoiler]", "Plain text with <angle brackets> & ampersands.",
    ]
    let count = Int.random(in: 1...4, using: &random)
    return (0..<count).map { _ in sentences.randomElement(using: &random) ?? "" }.joined(separator: " ")
  }

  /// The methods the admin API uses (named here so this file needs no NIOHTTP1 import of its own).
  private enum Verb: String {
    case get = "GET", post = "POST", delete = "DELETE"
  }

  private func call(_ method: Verb, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
    var request = HTTPClientRequest(url: baseURL.absoluteString + "/_fake/" + path)
    switch method {
    case .get: request.method = .GET
    case .post: request.method = .POST
    case .delete: request.method = .DELETE
    }
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 64 << 20)
    guard response.status.code < 300 else {
      throw SoakError.failed("the emulator answered \(response.status.code) to \(method.rawValue) /_fake/\(path)")
    }
    return try JSONDecoder().decode(JSONValue.self, from: Data(bytes.readableBytesView))
  }
}
