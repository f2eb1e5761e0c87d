import Foundation
import Logging
import ServiceLifecycle

/// Listens to one transport's incoming messages, runs each through the router, and hands every answer to `deliver`
/// (the app passes the engine's outbox so replies are retried like relays, or `directDelivery` to send at once).
/// Messages are handled one at a time, in order, so answers come back in the order commands were given.
package struct CommandService: Service {
  package typealias Deliver = @Sendable (_ reply: OutgoingMessage, _ to: IncomingMessage) async -> Void

  package let transport: any ChatTransport
  package let router: CommandRouter
  private let deliver: Deliver
  private let logger: Logger

  package init(
    transport: any ChatTransport, router: CommandRouter, logger: Logger = Logger(label: "awfulbot.commands"),
    deliver: @escaping Deliver
  ) {
    self.transport = transport
    self.router = router
    self.logger = logger
    self.deliver = deliver
  }

  /// Sends straight through the transport, retrying temporary failures a few times. The idempotency key is derived
  /// from the command message, so a retried send is not shown twice where the transport deduplicates.
  package static func directDelivery(
    via transport: any ChatTransport, attempts: Int = 3, logger: Logger = Logger(label: "awfulbot.commands")
  ) -> Deliver {
    { reply, message in
      let key = "reply:\(message.transport):\(message.room):\(message.messageID ?? UUID().uuidString)"
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
    for await message in transport.incoming.cancelOnGracefulShutdown() {
      guard let reply = await router.handle(message, capabilities: transport.capabilities) else { continue }
      await deliver(reply, message)
    }
    logger.debug("command listener stopped", metadata: ["transport": "\(transport.name)"])
  }
}
