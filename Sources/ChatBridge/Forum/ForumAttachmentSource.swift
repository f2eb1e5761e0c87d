/// Where a chat service gets the forum's own attachments (`attachment.php?attachmentid=N`): through the bot's forum
/// session, its politeness gate, walls and re-login, never as an off-site picture. The application hands one to the
/// transports that show pictures (`TransportBuildContext.forumAttachments`); transports never see the forum client.
package protocol ForumAttachmentSource: Sendable {
  /// The attachment's bytes as the forum served them, at most `maxBytes` (more is refused while reading). `id` is
  /// the attachment's number, digits only. Throws why the forum did not give it.
  func attachment(id: String, maxBytes: Int) async throws(ForumAttachmentFailure) -> [UInt8]
}

/// Why an attachment did not come. `detail` is for the log; what a room reads is fixed per case.
package enum ForumAttachmentFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The forum answered with a page instead of the file: an error page (deleted or unknown attachment, no
  /// permission), a login page the session could not get past, anything that is HTML.
  case refused(detail: String)
  /// The file is larger than the bytes allowed.
  case tooLarge(limit: Int)
  /// The forum could not be asked: unreachable, timed out, behind a wall, the account unable to log in.
  case unavailable(detail: String)

  package var description: String {
    switch self {
    case .refused(let detail): "The forum did not give the attachment: \(detail)"
    case .tooLarge(let limit): "The attachment is larger than the \(limit) bytes allowed."
    case .unavailable(let detail): "The forum could not be asked for the attachment: \(detail)"
    }
  }
}
