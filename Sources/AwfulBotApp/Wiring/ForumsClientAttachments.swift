import ChatBridge
import ForumsClient

/// The forum's attachments for the chat transports (`ForumAttachmentSource`), read through the bot's forum client:
/// its session, politeness gate, walls and re-login. The transports never see the client itself.
package struct ForumsClientAttachments: ForumAttachmentSource {
  let client: ForumsClient

  package init(client: ForumsClient) {
    self.client = client
  }

  package func attachment(id: String, maxBytes: Int) async throws(ForumAttachmentFailure) -> [UInt8] {
    do {
      return try await client.attachment(id: id, maxBytes: maxBytes)
    } catch let error as ForumsClientError {
      throw Self.failure(for: error, maxBytes: maxBytes)
    } catch {
      throw .unavailable(detail: "\(error)")
    }
  }

  /// What the forum's answer means for the picture: it would not give it (a page, a refusal, a 4xx), it is too large,
  /// or the forum could not be asked now (unreachable, a wall, the account unable to log in).
  static func failure(for error: ForumsClientError, maxBytes: Int) -> ForumAttachmentFailure {
    switch error {
    case .attachmentRefused, .forumRefused, .notFound, .pageNotUnderstood:
      return .refused(detail: error.description)
    case .http(let status) where (400...499).contains(status) && status != 429:
      return .refused(detail: error.description)
    case .bodyTooLarge:
      return .tooLarge(limit: maxBytes)
    default:
      return .unavailable(detail: error.description)
    }
  }
}
