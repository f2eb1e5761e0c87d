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

  /// A post the reply quotes, as the forum's Quote button fills it in.
  package struct Quote: Sendable, Hashable {
    package var postID: String
    package var author: String
    /// `[quote="Alice" post="123"]…[/quote]`, shortened to the poster's own words, posted before the text.
    package var bbcode: String
    /// The quoted words on one line, for the preview.
    package var excerpt: String

    package init(postID: String, author: String, bbcode: String, excerpt: String) {
      self.postID = postID
      self.author = author
      self.bbcode = bbcode
      self.excerpt = excerpt
    }
  }

  /// What a reply answers.
  package enum Target: Sendable, Hashable {
    /// A forum thread (`reply`), quoting one of its posts when it answers a relay.
    case thread(id: String, title: String, quote: Quote? = nil)
    /// A private message to the bot account (`pmreply`).
    case privateMessage(id: String, subject: String, sender: String?)
  }

  /// What may settle a preview.
  package enum Confirmation: Sendable, Hashable {
    /// `confirm` or `cancel`, or ✅ or ❌ on the preview (even in clear in an encrypted room, see
    /// `CommandRouter.handle(_:capabilities:)`): the preview was asked for in words, by a command.
    case commandOrReaction
    /// `confirm` or `cancel` only, which in an encrypted room must come encrypted from a trusted session: the
    /// preview was started by a reply relation the homeserver controls, and it could forge the reaction as well.
    case command
  }

  package struct Reply: Sendable, Hashable {
    package var target: Target
    package var text: String
    package var expires: Date
    /// The chat message that asked for the preview: the preview is its answer, so a ✅ on the preview confirms it.
    package var requestID: String?
    /// The role in account scope it needs, checked again when it is confirmed: a role taken away meanwhile (a
    /// reload, power lowered) stops it.
    package var neededRole: Role = .admin
    /// Whether the request passed the transport's trust check: only then may an unencrypted ✅ settle it.
    package var requestTrust: SenderTrust = .trusted
    package var confirmation: Confirmation = .commandOrReaction
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
  package func hold(
    _ key: Key, target: Target, text: String, now: Date, requestID: String? = nil, neededRole: Role = .admin,
    requestTrust: SenderTrust = .trusted, confirmation: Confirmation = .commandOrReaction
  ) -> Reply {
    let reply = Reply(
      target: target, text: text, expires: now.addingTimeInterval(lifetime), requestID: requestID,
      neededRole: neededRole, requestTrust: requestTrust, confirmation: confirmation)
    waiting[key] = reply
    return reply
  }

  /// Puts back a reply the forum refused (a flood wait, a closed thread), open again for a while, so the text is
  /// not lost and `confirm` tries again.
  package func reopen(_ key: Key, _ reply: Reply, now: Date) {
    var reopened = reply
    reopened.expires = now.addingTimeInterval(lifetime)
    waiting[key] = reopened
  }

  /// The user's waiting reply, left in place.
  package func peek(_ key: Key) -> Reply? {
    waiting[key]
  }

  /// The user's reply that may still be confirmed at `now`, left in place.
  package func live(_ key: Key, now: Date) -> Reply? {
    waiting[key].flatMap { now <= $0.expires ? $0 : nil }
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
