import BotStore
import ChatBridge
import Foundation

/// A ready message held while a room is quiet, queued unchanged (same idempotency key) when quiet ends.
struct HeldMessage: Sendable, Codable {
  var kind: OutboxKind
  var key: String
  var postID: String?
  var message: OutgoingMessage
}
