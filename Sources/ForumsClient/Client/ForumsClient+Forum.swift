import ForumModel
import Foundation

/// The client is the engine's `Forum` itself. Most requirements are the client's own calls; the inbox's are mapped
/// here from the pages the client reads (`privateMessageFolder`, `privateMessagePage`) to the fields the engine uses.
extension ForumsClient: Forum {
  /// The Inbox's newest messages (the forum lists 50), newest first, in one request; reading it marks nothing read.
  package func privateMessages() async throws -> [PrivateMessageHeader] {
    try await privateMessageFolder().messages.map { message in
      PrivateMessageHeader(
        id: message.id, subject: message.subject, sender: message.sender?.name, sentDate: message.sentDate,
        isUnread: !message.status.hasBeenSeen)
    }
  }

  /// One private message with its text; the forum marks it read.
  package func privateMessage(id: String) async throws -> PrivateMessageContent {
    let message = try await privateMessagePage(id: id)
    return PrivateMessageContent(
      id: message.id, subject: message.subject ?? "", sender: message.author?.name, sentDate: message.sentDate,
      body: message.body)
  }

  /// Replies to private message `id` under the forum's "Re:" subject, without quoting it.
  package func replyToPrivateMessage(id: String, text: String) async throws {
    try await replyToPrivateMessage(id: id, text: text, subject: nil, quotingOriginal: false)
  }
}
