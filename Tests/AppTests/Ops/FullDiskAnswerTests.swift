import AwfulBotApp
import AwfulBotAppTestKit
import AwfulBotTestKit
import BotCore
import BotStore
import ChatBridge
import Foundation
import Logging
import Testing

/// The app assembles what the outbox does with an answer it cannot take (a full disk): it sends it straight through
/// the transport the command came from, so help, status and "cannot save that" still reach the room.
@Suite("ops: answers on a full disk")
struct FullDiskAnswerTests {
  @Test("on a full disk a command's answer goes straight through its transport, and only there")
  func answeredThroughTheTransport() async throws {
    let directory = try TemporaryDirectory("awfulbot-full-disk-answer")
    defer { directory.remove() }
    let chat = RecordingTransport(name: "chat")
    let other = RecordingTransport(name: "other")
    let configuration = AppConfiguration(
      forum: .emulator(try #require(URL(string: "http://127.0.0.1:9")), requestSpacingSeconds: 0),
      dataDirectory: directory.path, transports: [.console(name: "chat"), .console(name: "other")],
      metrics: MetricsSettings(enabled: false))
    let application = try BotApplication(
      configuration: configuration, transports: [chat, other], databasePath: directory.path("bot.sqlite"),
      logger: .quiet())

    // The file may not grow, and the outbox is filled with answers like the one below (the same text, names of the
    // same length) until one no longer fits: the next needs a page the disk does not have.
    let database = application.database
    try database.limitGrowth()
    let answer = OutgoingMessage(.answer(CommandAnswer("Commands: help, status.")))
    for index in 0..<100_000 where chat.sent(to: "!fill").isEmpty {
      let message = IncomingMessage(
        transport: "chat", room: "!fill", senderID: "bob", senderName: "bob", text: "!help",
        messageID: "$" + String(100_000 + index))
      try await application.engine.outbox.enqueueReply(answer, answering: message)
    }
    #expect(database.storage.fullSince != nil)

    let command = IncomingMessage(
      transport: "chat", room: "!room", senderID: "alice", senderName: "alice", text: "!help", messageID: "$help00")
    try await application.engine.outbox.enqueueReply(answer, answering: command)
    #expect(chat.sent(to: "!room").map(\.message.text) == ["Commands: help, status."])
    #expect(other.sent(to: "!room").isEmpty, "the answer went out through another transport")
    #expect(
      try database.readNow { try $0.allOutboxRows() }.allSatisfy { $0.room == "!fill" }, "the answer was queued")
    try await application.client.shutdown()
  }
}
