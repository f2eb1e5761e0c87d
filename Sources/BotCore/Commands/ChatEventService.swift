import ChatBridge
import Foundation
import Logging
import ServiceLifecycle

/// Follows one transport's events: each message goes through the command router and every answer to `deliver`
/// (the app passes the engine's outbox so replies are retried like relays, or `directDelivery` to send at once);
/// the bot's own removal from a room (kick or ban, on any transport) pauses the room, so its posts are held and
/// counted in `status` instead of failing one by one. Events are handled one at a time, in order, so answers come
/// back in the order commands were given.
package struct ChatEventService: Service {
  /// `answer` numbers the answers to one message (1, 2, …), so each gets its own idempotency key.
  package typealias Deliver = @Sendable (_ reply: OutgoingMessage, _ to: IncomingMessage, _ answer: Int) async -> Void

  package let transport: any ChatTransport
  package let router: CommandRouter
  /// Pauses a room the bot was removed from; nil where no engine runs (tests of commands alone).
  private let pause: (@Sendable (RoomRef) async throws -> Bool)?
  private let deliver: Deliver
  private let logger: Logger
  /// Called after each event is handled (tests watch it).
  private let observe: @Sendable (ChatEvent) -> Void

  package init(
    transport: any ChatTransport, router: CommandRouter, engine: BotEngine? = nil,
    logger: Logger = Logger(label: "awfulbot.commands"), observe: @escaping @Sendable (ChatEvent) -> Void = { _ in },
    deliver: @escaping Deliver
  ) {
    self.transport = transport
    self.router = router
    if let engine {
      self.pause = { room in try await engine.roomSettings.update(room: room) { $0.isPaused = true }.before.isPaused }
    } else {
      self.pause = nil
    }
    self.logger = logger
    self.observe = observe
    self.deliver = deliver
  }

  /// Sends straight through the transport, retrying temporary failures a few times. The idempotency key is derived
  /// from the command message and the answer's number, so a retried send is not shown twice where the transport
  /// deduplicates, and a second answer to the same message is not taken for the first.
  package static func directDelivery(
    via transport: any ChatTransport, attempts: Int = 3, logger: Logger = Logger(label: "awfulbot.commands")
  ) -> Deliver {
    { reply, message, answer in
      let key = "reply:\(message.transport):\(message.room):\(message.messageID ?? UUID().uuidString)#\(answer)"
      for attempt in 1...max(attempts, 1) {
        do {
          _ = try await transport.send(reply, to: message.room, idempotencyKey: key)
          return
        } catch ChatSendError.retryable(_, let after) where attempt < attempts {
          try? await Task.sleep(for: after ?? .seconds(attempt))
        } catch {
          logger.warning(
            "reply not delivered", metadata: ["transport": "\(message.transport)", "error": "\(error)"])
          return
        }
      }
    }
  }

  package func run() async throws {
    for await event in transport.events.cancelOnGracefulShutdown() {
      await handle(event)
      observe(event)
    }
    logger.debug("event listener stopped", metadata: ["transport": "\(transport.name)"])
  }

  func handle(_ event: ChatEvent) async {
    switch event {
    case .message(let message):
      guard let reply = await router.handle(message, capabilities: transport.capabilities) else { return }
      await deliver(reply, message, 1)
    case .membership(let change):
      await follow(change)
    case .reaction(let reaction):
      await act(on: reaction)
    case .connection(let state):
      logger.info("chat connection changed", metadata: ["transport": "\(transport.name)", "state": "\(state)"])
    }
  }

  /// Does what a reaction asks (see `CommandRouter.handle(_:capabilities:)`): words go out like answers, the
  /// acknowledgement and a removal straight through the transport.
  private func act(on reaction: IncomingReaction) async {
    let outcome = await router.handle(reaction, capabilities: transport.capabilities)
    let metadata: Logger.Metadata = ["transport": "\(reaction.transport)", "room": "\(reaction.room)"]
    if let answer = outcome.answer {
      await deliver(answer, reaction.asMessage, 1)
    }
    if let key = outcome.acknowledgement {
      do {
        try await transport.react(to: reaction.target, in: reaction.room, with: key)
      } catch {
        logger.warning("reaction not sent", metadata: metadata.merging(["error": "\(error)"]) { $1 })
      }
    }
    if let receipt = outcome.redaction {
      do {
        try await transport.redact(receipt, in: reaction.room, reason: "removed by an admin's ❌")
      } catch {
        logger.warning("relay not removed", metadata: metadata.merging(["error": "\(error)"]) { $1 })
      }
    }
  }

  /// One rule for every transport: removed against its will, the bot pauses the room. It is not resumed when the
  /// bot is let back in: whoever invites it back says `resume`.
  private func follow(_ change: MembershipChange) async {
    let metadata: Logger.Metadata = [
      "transport": "\(change.transport)", "room": "\(change.room)", "kind": "\(change.kind.rawValue)",
      "by": "\(change.by ?? "-")", "reason": "\(change.reason ?? "-")",
    ]
    guard change.pausesTheRoom, let pause else {
      logger.info("membership changed", metadata: metadata)
      return
    }
    do {
      let wasPaused = try await pause(RoomRef(transport: change.transport, room: change.room))
      logger.warning(
        "room paused: the bot was removed, or the person it spoke to is gone",
        metadata: metadata.merging(["wasPaused": "\(wasPaused)"]) { $1 })
    } catch {
      logger.error(
        "could not pause a room the bot was removed from", metadata: metadata.merging(["error": "\(error)"]) { $1 })
    }
  }
}
