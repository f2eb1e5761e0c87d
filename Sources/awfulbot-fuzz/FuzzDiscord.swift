import ChatBridge
import ForumModel
import Foundation

@testable import DiscordTransport

/// The `discord` target: what Discord (or whatever answers in its place) sends back to a webhook request, and what a
/// forum post becomes in a Discord message. The input's first line is header lines joined by `;`
/// (`X-RateLimit-Remaining: 0; Retry-After: 1e400`), the rest the answer's body and, as plain text, a relayed post.
/// Whatever they say: reading cannot trap, every wait is between zero and a day, a message id is a snowflake, a
/// refusal is one line that never holds the webhook's token, and every rendered message fits Discord's 2,000
/// characters with no `@everyone` or `@here` left to ping.
enum FuzzDiscord {
  static let day = Duration.seconds(86_400)
  static let token = "fuzzTOKENfuzzTOKENfuzzTOKENfuzzTOKENfuzzTOKENfuzzTOKENfuzzTOKENfuzz"
  static let webhook = try! DiscordWebhook.parse("https://discord.com/api/webhooks/123456789012345678/\(token)").get()
  static let transport = try! DiscordTransport(
    configuration: DiscordTransportConfiguration(rooms: ["general": DiscordRoomSettings(webhook: webhook)]))
  static let renderer = DiscordRenderer()

  static func run(_ bytes: UnsafeRawBufferPointer) {
    let input = Array(bytes)
    let split = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
    let headerText = String(decoding: input[..<split], as: UTF8.self)
    let body = Array(input[min(split + 1, input.endIndex)...])
    let headers = DiscordRateLimitHeaders(header(in: headerText))
    checkWait(headers.resetAfter, "X-RateLimit-Reset-After", input)
    checkWait(headers.retryAfter, "Retry-After", input)
    if let remaining = headers.remaining, remaining < 0 { fatalError("remaining \(remaining) from \(input)") }
    var limits = DiscordRateLimits()
    let now = ContinuousClock.now
    limits.record(headers, webhook: webhook.id, now: now)
    for status in [200, 204, 400, 401, 403, 404, 413, 429, 500] {
      let answer = DiscordAnswer(status: status, rateLimit: headers, body: body)
      if let id = answer.messageID, !DiscordWebhook.isSnowflake(id) { fatalError("message id \(id) from \(input)") }
      let error = answer.error
      checkWait(error.retryAfter, "retry_after", input)
      if let wait = error.retryAfter {
        limits.record429(wait: wait, global: error.global, webhook: webhook.id, now: now)
      }
      checkWait(limits.wait(webhook: webhook.id, now: now), "the rate limits' wait", input)
      guard (400..<500).contains(status), status != 429 else { continue }
      let refusal = transport.refusal(answer, room: "general", webhook: webhook, doing: "send a message")
      guard case .permanent(let reason) = refusal else { fatalError("a \(status) is not a refusal: \(refusal)") }
      if reason.contains(token) { fatalError("the token in a refusal from \(input)") }
      if reason.contains(where: \.isNewline) { fatalError("a refusal over several lines from \(input): \(reason)") }
    }
    renderPost(String(decoding: body, as: UTF8.self))
  }

  /// A relayed post whose body, title and author are the text: each Discord message fits, and no mention forms.
  static func renderPost(_ text: String) {
    let relay = PostRelay(
      address: PostAddress(threadID: "1", postID: "2", index: 1), threadTitle: text, author: text, date: nil,
      link: "https://forums.somethingawful.com/showthread.php?threadid=1#post2",
      threadLink: "https://forums.somethingawful.com/showthread.php?threadid=1", body: [.text(text)],
      excerptLength: 4_000)
    for message in renderer.messages(.post(relay)) {
      if DiscordMessageSplitter.length(message) > DiscordMessageSplitter.contentLimit {
        fatalError("a message of \(DiscordMessageSplitter.length(message)) characters from \(Array(text.utf8))")
      }
      let lowered = message.lowercased()
      if lowered.contains("@everyone") || lowered.contains("@here") {
        fatalError("a mention left in \(message) from \(Array(text.utf8))")
      }
    }
  }

  /// The value of header `name` in `text` (`Name: value; Name: value`), any case; the first wins.
  static func header(in text: String) -> (String) -> String? {
    let fields = text.split(separator: ";").compactMap { field -> (String, String)? in
      guard let colon = field.firstIndex(of: ":") else { return nil }
      return (
        field[..<colon].trimmingCharacters(in: .whitespaces).lowercased(), String(field[field.index(after: colon)...])
      )
    }
    return { name in fields.first { $0.0 == name.lowercased() }?.1 }
  }

  static func checkWait(_ wait: Duration?, _ what: String, _ input: [UInt8]) {
    if let wait, wait < .zero || wait > day { fatalError("\(what) read as \(wait) from \(input)") }
  }
}
