import ChatBridge
import Foundation

/// Time per `send` in a plain and an end-to-end encrypted room, alternating, with one bot: what encryption adds to
/// each message (Megolm encryption, the encrypted event stored for resends, the larger body). The first encrypted
/// send also shares the room key and is reported on its own.
struct MatrixEncryptedSendRun {
  let context: MatrixBenchContext
  let sends: Int

  func measure() async throws {
    let bot = try context.makeBot(database: "encrypted-sends", runsDispatcher: false, encrypted: true)
    try await bot.run { bot in
      let plain = try await context.joinedRoom("awfulbot-bench sends plain", bot: bot)
      let encrypted = try await context.joinedRoom("awfulbot-bench sends encrypted", bot: bot, encrypted: true)
      let message = OutgoingMessage(
        .legacy(
          text: "A relayed post of ordinary length, with a link: https://forums.somethingawful.com/showthread.php",
          html: nil, link: nil))
      func timed(_ room: String, _ key: String) async throws -> Duration {
        let started = ContinuousClock.now
        _ = try await bot.transport.send(message, to: room, idempotencyKey: key)
        return ContinuousClock.now - started
      }
      let run = UUID().uuidString.prefix(8)
      let firstEncrypted = try await timed(encrypted, "bench-\(run)-e0")
      _ = try await timed(plain, "bench-\(run)-p0")
      var plainTimes: [Duration] = []
      var encryptedTimes: [Duration] = []
      for n in 1...sends {
        plainTimes.append(try await timed(plain, "bench-\(run)-p\(n)"))
        encryptedTimes.append(try await timed(encrypted, "bench-\(run)-e\(n)"))
      }
      print("time per send, one at a time (\(sends) each, alternating):")
      print("  plain room:     \(DurationSummary(plainTimes))")
      print("  encrypted room: \(DurationSummary(encryptedTimes))")
      print("  first encrypted send (shares the room key first): \(ms(firstEncrypted))")
    }
  }
}
