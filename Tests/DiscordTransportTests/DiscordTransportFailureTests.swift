import AwfulBotTestKit
import ChatBridge
import FakeDiscord
import ForumModel
import Foundation
import Testing

@testable import DiscordTransport

/// Rate limits, failures and secrets: what the transport does when Discord says wait, refuses, fails or is gone.
@Suite struct DiscordTransportFailureTests {
  static let message = OutgoingMessage(.answer(CommandAnswer("Hello.")))

  /// The bucket headers are obeyed: with 2 requests a 1.5 s window, 5 sends in a row wait for a reset instead of
  /// running into a 429 (the receiver counts every request sent into an empty bucket, `ignoredRateLimits`). Five
  /// sends that obey take at least two windows: faster than that, the transport must have waited; slower (a loaded
  /// machine), the bucket may have refilled by itself each time, and no wait is owed.
  @Test func anEmptyBucketIsWaitedOutBeforeTheNextRequest() async throws {
    try await DiscordWorld.with(buckets: .init(limit: 2, window: 1.5)) { world in
      let started = ContinuousClock.now
      for index in 1...5 {
        _ = try await world.transport.send(Self.message, to: "general", idempotencyKey: "k\(index)")
      }
      let elapsed = ContinuousClock.now - started
      #expect(await world.state.ignoredRateLimits == 0)
      #expect(await world.state.shown(webhookID: world.webhookID("general")).count == 5)
      #expect(world.transport.rateLimitWaits().count >= 1 || elapsed >= .seconds(3), "\(elapsed)")
    }
  }

  @Test func a429IsWaitedOutAndTheSendGoesThrough() async throws {
    try await DiscordWorld.with { world in
      await world.state.setFault(.rateLimitStorm(count: 2, retryAfter: 0.2, global: false))
      let receipt = try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      let shown = await world.state.shown(webhookID: world.webhookID("general"))
      #expect(shown.map(\.id) == [receipt.id])
      let statuses = await world.state.requests.map(\.status)
      #expect(statuses == [429, 429, 200])
      // Each wait is the 0.2 s asked for, less the moment between the answer and the wait.
      #expect(world.transport.rateLimitWaits().filter { $0 >= .milliseconds(150) }.count == 2)
    }
  }

  @Test func aGlobal429HoldsEveryWebhookAndAnOrdinaryOneOnlyItsOwn() {
    let now = ContinuousClock.now
    var limits = DiscordRateLimits()
    limits.record429(wait: .seconds(2), global: false, webhook: "1", now: now)
    #expect(limits.wait(webhook: "1", now: now) == .seconds(2))
    #expect(limits.wait(webhook: "2", now: now) == .zero)
    limits.record429(wait: .seconds(3), global: true, webhook: "1", now: now)
    #expect(limits.wait(webhook: "2", now: now + .seconds(1)) == .seconds(2))
    limits.record(DiscordRateLimitHeaders(remaining: 0, resetAfter: .seconds(5)), webhook: "3", now: now)
    #expect(limits.wait(webhook: "3", now: now) == .seconds(5))
  }

  @Test func outsideNumbersAreClamped() {
    let headers = DiscordRateLimitHeaders { name in
      ["X-RateLimit-Remaining": "-7", "X-RateLimit-Reset-After": "1e400", "Retry-After": "inf"][name]
    }
    #expect(headers.remaining == 0)
    #expect(headers.resetAfter == .seconds(86_400))
    #expect(headers.retryAfter == .seconds(86_400))
    let huge = DiscordRateLimitHeaders { name in
      ["X-RateLimit-Remaining": "1e30", "X-RateLimit-Reset-After": "nan"][name]
    }
    #expect(huge.remaining == Clamp.forumNumber)
    #expect(huge.resetAfter == .zero)
    let body = DiscordErrorBody.read(
      Array(#"{"retry_after": 1e400, "code": "x", "message": "a\u0000b\u202Ec", "global": 1}"#.utf8))
    #expect(body.retryAfter == nil || body.retryAfter == .seconds(86_400))
    #expect(body.code == nil)
    #expect(body.message == "a b c")
    #expect(body.global == false)
  }

  /// A 429 asking for longer than the send may wait in all goes back to the dispatcher at once, with Discord's wait
  /// (clamped to a day) as when to try again.
  @Test func aWaitLongerThanTheMaximumGoesBackToTheDispatcher() async throws {
    try await DiscordWorld.with(configure: { $0.maximumRateLimitWaitSeconds = 1 }) { world in
      await world.state.setFault(
        .scripted([
          .init(
            status: 429, headers: ["Retry-After": "99999999999"],
            body: #"{"message": "You are being rate limited.", "retry_after": 1e300, "global": true}"#)
        ]))
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      }
      guard case .retryable(_, let after) = error else {
        Issue.record("expected retryable: \(String(describing: error))"); return
      }
      #expect(after.map { $0 > .seconds(86_000) && $0 <= .seconds(86_400) } == true)
      #expect(world.transport.rateLimitWaits().isEmpty)
    }
  }

  @Test func serverErrorsAreRetriedThenHandedBackAsRetryable() async throws {
    try await DiscordWorld.with(configure: { $0.sendAttempts = 2 }) { world in
      await world.state.setFault(.serverErrors(count: 1))
      _ = try await world.transport.send(Self.message, to: "general", idempotencyKey: "k1")
      await world.state.setFault(.serverErrors(count: 5))
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(Self.message, to: "general", idempotencyKey: "k2")
      }
      guard case .retryable(let reason, _) = error else {
        Issue.record("expected retryable: \(String(describing: error))"); return
      }
      #expect(reason == "Discord answered 500")
    }
  }

  @Test func aReceiverThatIsDownIsRetryableAndTheStateSaysSo() async throws {
    try await DiscordWorld.with(configure: {
      $0.sendAttempts = 1; $0.requestTimeoutSeconds = 1
    }) { world in
      await world.server.goDown()
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      }
      guard case .retryable(let reason, _) = error else {
        Issue.record("expected retryable: \(String(describing: error))"); return
      }
      #expect(reason.hasPrefix("Discord cannot be reached"))
      var events = world.transport.events.makeAsyncIterator()
      guard case .connection(.retrying) = await events.next() else { Issue.record("expected a retrying state"); return }
      _ = try await world.server.start()
      _ = try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      #expect(await events.next() == .connection(.connected))
    }
  }

  @Test func aDeletedWebhookIsAPermanentFailureThatSaysWhatToDo() async throws {
    try await DiscordWorld.with { world in
      await world.state.removeWebhook(id: world.webhookID("general"))
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      }
      guard case .permanent(let reason) = error else {
        Issue.record("expected permanent: \(String(describing: error))"); return
      }
      #expect(reason.contains("room general"))
      #expect(reason.contains("no longer exists"))
      #expect(reason.contains("10015"))
    }
  }

  @Test func aResetTokenIsAPermanentFailure() async throws {
    try await DiscordWorld.with { world in
      let wrong = world.webhooks["general"]!.replacingOccurrences(of: world.token("general"), with: "resettoken")
      let transport = try DiscordTransport(
        configuration: DiscordTransportConfiguration(
          rooms: ["general": DiscordRoomSettings(webhook: try DiscordWebhook.parse(wrong).get())]),
        logger: .quiet())
      let error = await #expect(throws: ChatSendError.self) {
        try await transport.send(Self.message, to: "general", idempotencyKey: "k")
      }
      guard case .permanent(let reason) = error else {
        Issue.record("expected permanent: \(String(describing: error))"); return
      }
      #expect(reason.contains("refused the token"))
      #expect(!reason.contains("resettoken"))
    }
  }

  @Test func aSuccessWithoutAMessageIDIsNotTakenAsAReceipt() async throws {
    try await DiscordWorld.with { world in
      await world.state.setFault(.scripted([.init(status: 200, body: #"{"id": "12;DROP", "content": "x"}"#)]))
      let error = await #expect(throws: ChatSendError.self) {
        try await world.transport.send(Self.message, to: "general", idempotencyKey: "k")
      }
      guard case .permanent = error else { Issue.record("expected permanent: \(String(describing: error))"); return }
    }
  }

  /// The webhook token is a secret: no failure puts it in an error or a log line, even when Discord's own sentence
  /// or a network error names the URL.
  @Test func theTokenIsInNoErrorAndNoLogLine() async throws {
    // One try, so each fault is one reason; the timeout is only waited out once, for the receiver that went down,
    // and is long enough that a loaded machine's answers are not taken for silence (1 s was not, in a CI-like run).
    try await DiscordWorld.with(configure: {
      $0.sendAttempts = 1; $0.requestTimeoutSeconds = 5
    }) { world in
      let token = world.token("general")
      var reasons: [String] = []
      func attempt(_ fault: FakeDiscordFault?) async {
        await world.state.setFault(fault)
        do {
          _ = try await world.transport.send(Self.message, to: "general", idempotencyKey: UUID().uuidString)
        } catch {
          reasons.append("\(error)")
        }
      }
      await attempt(
        .scripted([.init(status: 400, body: #"{"code": 50035, "message": "bad \#(world.webhooks["general"]!)"}"#)]))
      await attempt(.scripted([.init(status: 403, body: #"{"code": 50013, "message": "Missing Permissions"}"#)]))
      // A long sentence whose cut (at 200 characters) falls inside the token: it must be blanked out before the cut.
      let padding = String(repeating: "x", count: 130)
      await attempt(
        .scripted([
          .init(status: 400, body: #"{"code": 50035, "message": "\#(padding) \#(world.webhooks["general"]!)"}"#)
        ]))
      await attempt(.serverErrors(count: 1))
      await attempt(.scripted([.init(status: 200, body: "not json")]))
      await world.state.removeWebhook(id: world.webhookID("general"))
      await attempt(nil)
      await world.server.goDown()
      await attempt(nil)
      _ = await world.transport.probe()
      #expect(reasons.count == 7)
      // Not even a piece of it (`fake-` and 7 of its random characters).
      let piece = String(token.prefix(12))
      #expect(reasons.allSatisfy { !$0.contains(piece) })
      #expect(reasons[0].contains("50035"))
      #expect(reasons[0].contains("<token>"))
      #expect(!world.logs.lines.isEmpty)
      #expect(world.logs.lines.allSatisfy { !$0.contains(piece) })
      #expect(!"\(world.transport.configuration)".contains(token))
      #expect(!String(reflecting: world.transport.configuration).contains(token))
    }
  }

  @Test func theProbeSaysWhichWebhooksAreThere() async throws {
    try await DiscordWorld.with(rooms: ["general", "gone"]) { world in
      await world.state.removeWebhook(id: world.webhookID("gone"))
      let results = await world.transport.probe()
      #expect(results.map(\.outcome) == [.pass, .fail])
      #expect(results[0].detail.contains("AwfulBot"))
      #expect(results[1].detail.contains("no longer exists"))
      // The probe reads the webhook; it sends nothing to the channel.
      #expect(await world.state.messages.isEmpty)
    }
  }
}
