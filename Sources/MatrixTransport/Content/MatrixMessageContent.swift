import ChatBridge
import Foundation
import MatrixModel

/// Where a relayed post goes in a room with threads on: the thread's root event and the latest event in it.
package struct MatrixThreadPosition: Sendable, Hashable, Codable {
  package var root: String
  package var latest: String

  package init(root: String, latest: String) {
    self.root = root
    self.latest = latest
  }
}

/// Turns a rendered message into `m.room.message` content: always `m.notice` (bots must not trigger other bots),
/// plain `body` plus `org.matrix.custom.html` when there is HTML, an empty `m.mentions` (intentional mentions: the
/// homeserver and clients then ignore names and `@room` found in the text), and the relation it needs.
package enum MatrixMessageContent {
  package static let htmlFormat = MatrixRoomMessage.htmlFormat

  /// - Parameters:
  ///   - thread: the thread position when the room puts each forum thread in a Matrix thread and this forum thread
  ///     already has a root there; nil otherwise.
  ///   - suppressPreviews: asks clients not to unfurl links (relayed posts link to the forum).
  package static func content(
    for message: OutgoingMessage, rendered: MatrixRenderer.Rendered, thread: MatrixThreadPosition?,
    suppressPreviews: Bool
  ) -> JSONValue {
    var base = plainContent(text: rendered.body, html: rendered.html)
    if suppressPreviews && message.isRelay {
      // MSC4095 (bundled URL previews): an empty list means "no previews"; clients implementing the MSC honour it.
      base.beeperLinkPreviews = []
      base.urlPreviews = []
    }
    if let original = message.replaces {
      var edit = plainContent(text: "* " + rendered.body, html: rendered.html.map { "* " + $0 })
      edit.newContent = base.json
      edit.relatesTo = MatrixRelation(relType: MatrixRelationType.replace, eventID: original)
      edit.urlPreviews = base.urlPreviews
      edit.beeperLinkPreviews = base.urlPreviews
      return edit.json
    }
    if let command = message.inReplyTo {
      base.relatesTo = .reply(to: command)
    } else if let thread {
      base.relatesTo = .thread(root: thread.root, latest: thread.latest)
    }
    return base.json
  }

  /// A plain `m.notice` without relation (also the encryption notice). The renderer made both forms safe as it
  /// wrote them; the body's mentions are defused once more here because that costs nothing and is idempotent.
  static func plainContent(text: String, html: String?) -> MatrixRoomMessage {
    var content = MatrixRoomMessage(msgtype: MatrixMessageType.notice, body: ChatText.defuseMentions(text))
    content.mentions = MatrixMentions()
    if let html {
      content.format = htmlFormat
      content.formattedBody = html
    }
    return content
  }
}
