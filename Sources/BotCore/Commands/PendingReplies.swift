import ChatBridge
import Foundation

/// Replies waiting for `confirm`: one per user per room, valid for a short time, so a forum post is never made
/// by a typo or by someone else in the room.
package actor PendingReplies {
  package struct Key: Sendable, Hashable {
    package var transport: String
    package var room: String
    package var senderID: String
  }

  package struct Reply: Sendable, Hashable {
    package var threadID: String
    package var threadTitle: String
    package var text: String
    package var expires: Date
  }

  package enum Outcome: Sendable, Hashable {
    case ready(Reply)
    case expired(Reply)
    case none
  }

  /// How long a preview stays valid.
  package let lifetime: TimeInterval
  private var waiting: [Key: Reply] = [:]

  package init(lifetime: TimeInterval = 120) {
    self.lifetime = lifetime
  }

  /// Stores a reply for confirmation, replacing the user's earlier one in that room.
  package func hold(_ key: Key, threadID: String, threadTitle: String, text: String, now: Date) -> Reply {
    let reply = Reply(
      threadID: threadID, threadTitle: threadTitle, text: text, expires: now.addingTimeInterval(lifetime))
    waiting[key] = reply
    return reply
  }

  /// Takes the user's reply out (whatever the outcome, it cannot be confirmed twice).
  package func take(_ key: Key, now: Date) -> Outcome {
    guard let reply = waiting.removeValue(forKey: key) else { return .none }
    return now <= reply.expires ? .ready(reply) : .expired(reply)
  }

  package func cancel(_ key: Key) -> Reply? {
    waiting.removeValue(forKey: key)
  }
}
