import ChatBridge
import Foundation

extension DiscordTransport {
  /// The JSON of a send or an edit. `allowed_mentions` with nothing to parse: no mention in the text pings anyone,
  /// whatever the escaping missed.
  struct MessageBody: Encodable {
    struct AllowedMentions: Encodable { var parse: [String] = [] }
    var content: String
    var allowed_mentions = AllowedMentions()
    var username: String?
  }

  /// Renders `message` and sends it to `room`'s webhook, one Discord message per part (see `DiscordRenderer`); an
  /// edit (`replaces`) goes to the messages it replaces instead. Discord takes no idempotency key: see the type's
  /// comment for what that means after a crash.
  package func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws
    -> DeliveryReceipt
  {
    let (webhook, username, renderer) = try target(room)
    if let replaces = message.replaces {
      return try await edit(replaces, with: message.content, in: room, webhook: webhook, renderer: renderer)
    }
    let parts = renderer.messages(message.content)
    var ids = state.withLock { $0.partials.sent(key: idempotencyKey, parts: parts) }
    for part in parts.dropFirst(ids.count) {
      let body = try encode(MessageBody(content: part, username: username))
      let answer = try await request(
        .post, webhook.executeURL, webhook: webhook, room: room, logPath: webhook.logPath("?wait=true"), body: body)
      guard answer.isSuccess else { throw refusal(answer, room: room, webhook: webhook, doing: "send a message") }
      guard let id = answer.messageID else {
        // Discord took it (2xx) but said no id: the message is there, and nothing could edit or remove it.
        logger.warning("Discord answered a send without a message id", metadata: ["room": "\(room)"])
        throw ChatSendError.permanent(reason: "Discord took the message for room \(room) but gave no message id")
      }
      ids.append(id)
      if ids.count < parts.count {
        let sent = ids
        state.withLock { $0.partials.record(key: idempotencyKey, parts: parts, sentIDs: sent) }
      }
    }
    state.withLock { $0.partials.finish(key: idempotencyKey) }
    return DeliveryReceipt(id: DiscordReceipt(messageIDs: ids).text)
  }

  /// Follows an edit: each message of the receipt gets its part of the new text (a longer text is shortened to
  /// fit them, saying so; parts left over say they are empty now, so a later, longer edit still has them).
  func edit(
    _ receipt: String, with content: ChatMessage, in room: String, webhook: DiscordWebhook, renderer: DiscordRenderer
  ) async throws -> DeliveryReceipt {
    guard let target = DiscordReceipt(receipt) else {
      throw ChatSendError.permanent(reason: "the message to edit in room \(room) is not a Discord message id")
    }
    let parts = Self.fitted(renderer.lines(content), into: target.messageIDs.count, link: Self.link(of: content))
    for (offset, id) in target.messageIDs.enumerated() {
      let part = offset < parts.count ? parts[offset] : Self.emptiedPart
      let body = try encode(MessageBody(content: part))
      let answer = try await request(
        .patch, webhook.messageURL(id), webhook: webhook, room: room, logPath: webhook.logPath("/messages/\(id)"),
        body: body)
      if answer.isSuccess { continue }
      if answer.status == 404, answer.error.code == DiscordErrorCode.unknownMessage, offset > 0 {
        // Someone removed this part on Discord: it stays removed.
        logger.info("a part of an edited message is gone", metadata: ["room": "\(room)", "message": "\(id)"])
        continue
      }
      throw refusal(answer, room: room, webhook: webhook, doing: "edit a message")
    }
    return DeliveryReceipt(id: target.messageIDs[0])
  }

  /// What a part of an edited message says once the new text no longer needs it.
  static let emptiedPart = "(This part is empty since the message was edited.)"
  /// The line a shortened edit ends with (before its link).
  static let shortenedNote = "(Shortened: the edited text is longer than the messages it replaces.)"

  /// `lines` as at most `slots` messages: as they are when they fit, else the first lines that fit with the note
  /// and `link` after them.
  static func fitted(_ lines: [String], into slots: Int, link: String?) -> [String] {
    let whole = DiscordMessageSplitter.split(lines)
    guard whole.count > slots else { return whole }
    let tail = [shortenedNote] + (link.map { [DiscordMarkdown.escape($0)] } ?? [])
    var kept = lines
    while !kept.isEmpty {
      kept.removeLast()
      let parts = DiscordMessageSplitter.split(kept + tail)
      if parts.count <= slots { return parts }
    }
    return DiscordMessageSplitter.split(tail)
  }

  /// The forum link a message ends with, kept when an edit is shortened.
  static func link(of content: ChatMessage) -> String? {
    switch content {
    case .post(let post): post.link
    case .alert(let alert): alert.post.link
    case .announcement(let announcement): announcement.link
    case .privateMessage(let alert): alert.link
    case .newThread(let notice): notice.link
    case .summary(let summary): summary.latestLink
    // Digests and answers have no one link; messages added later are shortened without one.
    default: nil
    }
  }

  /// Takes back every message of `messageID` (a receipt). A message already gone counts as taken back. Discord's
  /// webhook deletions carry no reason.
  package func redact(_ messageID: String, in room: String, reason: String?) async throws {
    let (webhook, _, _) = try target(room)
    guard let target = DiscordReceipt(messageID) else {
      throw ChatSendError.permanent(reason: "the message to remove in room \(room) is not a Discord message id")
    }
    for id in target.messageIDs {
      let answer = try await request(
        .delete, webhook.messageURL(id), webhook: webhook, room: room, logPath: webhook.logPath("/messages/\(id)"))
      if answer.isSuccess || (answer.status == 404 && answer.error.code == DiscordErrorCode.unknownMessage) { continue }
      throw refusal(answer, room: room, webhook: webhook, doing: "remove a message")
    }
  }

  /// The room's webhook, author name and the renderer, or a permanent failure for a room the transport has not.
  private func target(_ room: String) throws -> (DiscordWebhook, String?, DiscordRenderer) {
    let found = state.withLock { state -> (DiscordWebhook, String?, DiscordRenderer)? in
      guard let webhook = state.configuration.rooms[room]?.webhook else { return nil }
      return (webhook, state.configuration.username(for: room), state.renderer)
    }
    guard let found else {
      throw ChatSendError.permanent(
        reason: "Discord transport \(name) has no room named \(room) (its rooms: \(rooms.joined(separator: ", ")))")
    }
    return found
  }

  private func encode(_ body: MessageBody) throws -> [UInt8] {
    do {
      return Array(try JSONEncoder().encode(body))
    } catch {
      throw ChatSendError.permanent(reason: "the message could not be encoded as JSON")
    }
  }
}
