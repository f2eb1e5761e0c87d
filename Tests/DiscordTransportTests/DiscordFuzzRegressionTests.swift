import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import DiscordTransport

/// What the `discord` fuzz target reads (`scripts/fuzz discord`): its seeds (`Tests/FuzzSeeds/discord`, answers as
/// Discord and a proxy send them) and every input it found crashing (`FuzzRegressions/discord`), each a first line of
/// headers joined by `;` and then a body, go through the same readers again: a wait is between zero and a day, a
/// message id is a snowflake, a refusal is one line without the token, and a post rendered from the body fits
/// Discord's limit with no mention left. Read from the source tree, so a kept input needs no package change.
@Suite("Fuzz regressions: Discord's answers")
struct DiscordFuzzRegressionTests {
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let folders = [
    here.appendingPathComponent("FuzzRegressions/discord"),
    here.deletingLastPathComponent().appendingPathComponent("FuzzSeeds/discord"),
  ]
  static let day = Duration.seconds(86_400)
  static let token = "regressionTOKENregressionTOKENregressionTOKENregressionTOKEN"

  static func inputs() -> [String] {
    folders.flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
        .map { folder.appendingPathComponent($0).path }
    }.sorted()
  }

  @Test("the seeds are there, so the replay below is not empty")
  func seedsExist() {
    #expect(Self.inputs().count >= 9)
  }

  @Test(arguments: Self.inputs())
  func replay(path: String) throws {
    let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let split = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
    let fields = String(decoding: input[..<split], as: UTF8.self).split(separator: ";").compactMap {
      field -> (String, String)? in
      guard let colon = field.firstIndex(of: ":") else { return nil }
      return (field[..<colon].trimmingCharacters(in: .whitespaces).lowercased(), String(field[colon...].dropFirst()))
    }
    let body = Array(input[min(split + 1, input.endIndex)...])
    let headers = DiscordRateLimitHeaders { name in fields.first { $0.0 == name.lowercased() }?.1 }
    for wait in [headers.resetAfter, headers.retryAfter].compactMap({ $0 }) {
      #expect(wait >= .zero && wait <= Self.day, "\(wait)")
    }
    #expect((headers.remaining ?? 0) >= 0)
    let webhook = try DiscordWebhook.parse("https://discord.com/api/webhooks/123456789012345678/\(Self.token)").get()
    let transport = try DiscordTransport(
      configuration: DiscordTransportConfiguration(rooms: ["general": DiscordRoomSettings(webhook: webhook)]))
    for status in [200, 400, 401, 403, 404, 413, 429] {
      let answer = DiscordAnswer(status: status, rateLimit: headers, body: body)
      if let id = answer.messageID { #expect(DiscordWebhook.isSnowflake(id)) }
      if let wait = answer.error.retryAfter { #expect(wait >= .zero && wait <= Self.day, "\(wait)") }
      guard (400..<500).contains(status), status != 429 else { continue }
      guard case .permanent(let reason) = transport.refusal(answer, room: "general", webhook: webhook, doing: "send")
      else {
        Issue.record("a \(status) that is not a refusal")
        continue
      }
      #expect(!reason.contains(Self.token) && !reason.contains(where: \.isNewline), "\(reason)")
    }
    let text = String(decoding: body, as: UTF8.self)
    let relay = PostRelay(
      address: PostAddress(threadID: "1", postID: "2", index: 1), threadTitle: text, author: text, date: nil,
      link: "https://forums.somethingawful.com/showthread.php?threadid=1#post2",
      threadLink: "https://forums.somethingawful.com/showthread.php?threadid=1", body: [.text(text)],
      excerptLength: 4_000)
    for message in DiscordRenderer().messages(.post(relay)) {
      #expect(DiscordMessageSplitter.length(message) <= DiscordMessageSplitter.contentLimit)
      #expect(!message.lowercased().contains("@everyone") && !message.lowercased().contains("@here"), "\(message)")
    }
  }
}
