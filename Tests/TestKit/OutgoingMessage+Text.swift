import ChatBridge
import ChatRendering

/// How tests read what the bot says: the text a plain-text transport shows (the console's lines), so an assertion
/// checks what a person reads rather than a stored structure.
extension OutgoingMessage {
  package enum Kind: Sendable, Hashable {
    case relay
    case reply
  }

  package var kind: Kind { isRelay ? .relay : .reply }

  /// The complete text, lines joined with newlines.
  package var text: String { TextRendering.lines(content).joined(separator: "\n") }

  /// The link that leads to the rest: the post, the latest post of a summary, the new thread, the announcements.
  package var link: String? {
    switch content {
    case .post(let post): post.link
    case .alert(let alert): alert.post.link
    case .summary(let summary): summary.latestLink
    case .announcement(let announcement): announcement.link
    case .newThread(let notice): notice.link
    case .privateMessage(let alert): alert.link
    case .digest, .answer: nil
    case .legacy(_, _, let link): link
    case .punishment(let relay): relay.link
    case .punishments(let summary): summary.link
    }
  }
}
