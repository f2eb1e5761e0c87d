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

  /// What a reply answers.
  package enum Target: Sendable, Hashable {
    /// A forum thread (`reply`).
    case thread(id: String, title: String)
    /// A private message to the bot account (`pmreply`).
    case privateMessage(id: String, subject: String, sender: String?)
  }

  package struct Reply: Sendable, Hashable {
    package var target: Target
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
  package func hold(_ key: Key, target: Target, text: String, now: Date) -> Reply {
    let reply = Reply(target: target, text: text, expires: now.addingTimeInterval(lifetime))
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
