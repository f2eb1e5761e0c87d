import ForumModel
import Foundation

extension ForumsClient {
  /// A private-message folder, the Inbox (`"0"`) unless told otherwise (`"-1"` is Sent Items): one request,
  /// `private.php?folderid=N`. The forum lists a folder's last 50 messages, newest first, each with its read state
  /// (`status.hasBeenSeen`); reading the folder does not mark anything read. The engine reads the Inbox as
  /// `privateMessages()` (`ForumsClient+Forum.swift`).
  package func privateMessageFolder(id folderID: String = "0") async throws -> PrivateMessageFolder {
    try await withSession {
      let (document, _) = try await fetchDocument(
        .get("private.php", [("folderid", folderID)]), page: "private messages")
      let folder = try scrape("private messages") {
        try PageScrapers.privateMessageFolder(document, timeZone: configuration.timeZone)
      }
      note(folder.probation)
      return folder
    }
  }

  /// One private message as its page shows it, `private.php?action=show&privatemessageid=M`. The forum marks it
  /// read. The engine reads it as `privateMessage(id:)` (`ForumsClient+Forum.swift`).
  package func privateMessagePage(id: String) async throws -> PrivateMessage {
    try await withSession {
      let (document, _) = try await fetchDocument(
        .get("private.php", [("action", "show"), ("privatemessageid", id)]), page: "private message")
      let message = try scrape("private message") {
        try PageScrapers.privateMessage(document, timeZone: configuration.timeZone)
      }
      note(message.probation)
      return message
    }
  }

  /// Sends a new private message to the user named `username`: fetches the forum's new-message form
  /// (`private.php?action=newmessage`) and posts it back (`touser`, `title`, `message`, `iconid`, `action=dosend`,
  /// `savecopy=yes`, `submit`), two requests. The post is never retried once it may have reached the forum. An
  /// unknown user or an empty subject is the forum's refusal (`ForumsClientError.forumRefused`); on probation
  /// nothing is posted (`ForumsClientError.probation`).
  package func sendPrivateMessage(to username: String, subject: String, text: String) async throws {
    try await withSession {
      let form = try await privateMessageForm(query: [("action", "newmessage")])
      try await submitPrivateMessage(form, recipient: username, subject: subject, text: text)
      logger.info("sent a private message")
    }
  }

  /// Replies to private message `id`: fetches the forum's reply form (`private.php?action=newmessage&
  /// privatemessageid=M`, which names the recipient, a "Re: …" subject, `prevmessageid=M` and an empty `forward`)
  /// and posts it back with `text`, so the forum marks the original replied to. `subject` replaces the forum's
  /// "Re: …"; with `quotingOriginal` the forum's quote of the original stays above the text.
  package func replyToPrivateMessage(
    id: String, text: String, subject: String? = nil, quotingOriginal: Bool = false
  ) async throws {
    try await withSession {
      let form = try await privateMessageForm(query: [("action", "newmessage"), ("privatemessageid", id)])
      var message = text
      if quotingOriginal {
        let quote = form.message.trimmingCharacters(in: .whitespacesAndNewlines)
        if !quote.isEmpty { message = quote + "\n\n" + text }
      }
      try await submitPrivateMessage(form, recipient: nil, subject: subject, text: message)
      logger.info("replied to a private message", metadata: ["privatemessageid": "\(id)"])
    }
  }

  /// The new-message form (`form[name=vbform]`), refused on probation.
  private func privateMessageForm(query: [(String, String)]) async throws -> ReplyForm {
    let (page, _) = try await fetchDocument(.get("private.php", query), page: "private message form")
    try refuseOnProbation(page)
    return try scrape("private message form") { try PageScrapers.replyForm(page) }
  }

  /// Posts the form with the recipient, subject and text filled in (nil keeps what the form holds) and checks that
  /// the forum confirms it. The session check comes after reading the answer: a message the forum accepted must be
  /// reported as sent.
  private func submitPrivateMessage(_ form: ReplyForm, recipient: String?, subject: String?, text: String)
    async throws
  {
    let fields = Self.privateMessageFields(form, recipient: recipient, subject: subject, text: text)
    guard let touser = fields.last(where: { $0.name == "touser" })?.value, !touser.isEmpty else {
      throw ForumsClientError.pageNotUnderstood(
        ScrapeError(page: "private message form", reason: "the form names no recipient (touser)"))
    }
    let response = try await transport.send(
      .post(Self.endpoint(ofFormAction: form.action, default: "private.php"), form: fields, isIdempotent: false))
    let document = try PageReader.document(from: response, page: "private message sent")
    try scrape("private message sent") { try PageScrapers.privateMessageSent(document) }
  }

  /// Every field the form would submit, with `touser`, `title` and `message` (CRLF line breaks) filled in and the
  /// fields the forum expects (docs/forum-protocol.md#private-messages) added when the form lacks them:
  /// `action=dosend`, `iconid=0`, `savecopy=yes`, and the "Send Message" button.
  static func privateMessageFields(_ form: ReplyForm, recipient: String?, subject: String?, text: String)
    -> [FormField]
  {
    var replaced: Set<String> = ["message"]
    if recipient != nil { replaced.insert("touser") }
    if subject != nil { replaced.insert("title") }
    var fields = form.fields.filter { !replaced.contains($0.name) }.map { FormField($0.name, $0.value) }
    for (name, value) in [("action", "dosend"), ("iconid", "0"), ("savecopy", "yes")]
    where !fields.contains(where: { $0.name == name }) {
      fields.append(FormField(name, value))
    }
    if let recipient { fields.append(FormField("touser", recipient)) }
    if let subject { fields.append(FormField("title", subject)) }
    fields.append(FormField("message", text, kind: .textarea))
    let submit =
      form.submitButtons.first { $0.name == "submit" } ?? ReplyForm.Field(name: "submit", value: "Send Message")
    fields.append(FormField(submit.name, submit.value))
    return fields
  }
}
