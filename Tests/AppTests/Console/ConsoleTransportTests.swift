import AwfulBotEngineTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import Synchronization
import Testing

@testable import AwfulBotApp
@testable import BotCore

@Suite("Console transport")
struct ConsoleTransportTests {
  final class Output: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  @Test("lines from a pipe become admin messages in the console room; EOF keeps the transport running")
  func pipeInput() async throws {
    let pipe = Pipe()
    let output = Output()
    let console = ConsoleTransport(input: pipe.fileHandleForReading, userName: "op", write: { output.append($0) })
    let running = Task { try await console.run() }
    pipe.fileHandleForWriting.write(Data("!status\n\n  !help watch  \r\nno newline at end".utf8))
    try pipe.fileHandleForWriting.close()

    var received: [IncomingMessage] = []
    for await case .message(let message) in console.events {
      received.append(message)
      if received.count == 3 { break }
    }
    #expect(received.map(\.text) == ["!status", "!help watch", "no newline at end"])
    #expect(received.allSatisfy { $0.room == "console" && $0.transportRole == .admin && $0.transport == "console" })
    #expect(Set(received.compactMap(\.messageID)).count == 3)

    // After end of input the transport still sends.
    let relay = NewThreadNotice(forumName: "GBS", title: "Thread", author: "Goon", link: "https://x/t")
    let receipt = try await console.send(OutgoingMessage(.newThread(relay)), to: "console", idempotencyKey: "k1")
    #expect(output.all == ["[relay] New thread in GBS: Thread by Goon: https://x/t"])
    running.cancel()
    _ = try? await running.value
    #expect(!receipt.id.isEmpty)
  }

  @Test("sends are idempotent per key and replies are tagged")
  func idempotentSends() async throws {
    let output = Output()
    let console = ConsoleTransport(input: Pipe().fileHandleForReading, write: { output.append($0) })
    let first = try await console.send(
      OutgoingMessage(.answer(CommandAnswer("hi\u{07}"))), to: "console", idempotencyKey: "a")
    let again = try await console.send(
      OutgoingMessage(.answer(CommandAnswer("hi"))), to: "console", idempotencyKey: "a")
    let other = try await console.send(
      OutgoingMessage(.answer(CommandAnswer("two"))), to: "console", idempotencyKey: "b")
    #expect(first == again)
    #expect(first != other)
    #expect(output.all == ["[reply] hi", "[reply] two"])
  }

  @Test("console messages drive the command router end to end")
  func routerEndToEnd() async throws {
    let bot = try await CommandHarness()
    let pipe = Pipe()
    let output = Output()
    let console = ConsoleTransport(
      name: CommandHarness.transport, input: pipe.fileHandleForReading, write: { output.append($0) })
    let running = Task { try await console.run() }
    pipe.fileHandleForWriting.write(Data("!subscribe announcements\n".utf8))
    try pipe.fileHandleForWriting.close()
    for await case .message(let message) in console.events {
      if let reply = await bot.router.handle(message, capabilities: console.capabilities) {
        _ = try await console.send(reply, to: message.room, idempotencyKey: message.messageID ?? "")
      }
      break
    }
    running.cancel()
    _ = try? await running.value
    #expect(output.all == ["[reply] Subscribed this room to announcements."])
  }
}
