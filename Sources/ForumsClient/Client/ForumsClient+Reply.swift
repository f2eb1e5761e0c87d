import ForumModel

extension ForumsClient {
  /// Posts `text` (BBCode) as a reply to the thread and returns what the forum says about the new post.
  ///
  /// The reply form is fetched first for its hidden fields (`formkey`, `form_cookie`, …). The post itself is never
  /// retried after it may have reached the forum, so a reply is never posted twice. An account on probation cannot
  /// post: when the form page carries the probation banner, this throws `ForumsClientError.probation` without posting.
  /// The forum's own refusals come out typed, its sentence kept: `.threadClosed`, `.probation`, and `.floodCheck` (a
  /// reply too soon after the account's last post, with the seconds left); each has a `postingRefusal`.
  package func reply(threadID: String, text: String) async throws -> ReplyResult {
    try await withSession {
      let (formPage, _) = try await fetchDocument(
        .get("newreply.php", [("action", "newreply"), ("threadid", threadID)]), page: "reply form")
      try refuseOnProbation(formPage)
      let form = try scrape("reply form") { try PageScrapers.replyForm(formPage) }

      let response = try await transport.send(
        .post(Self.endpoint(ofFormAction: form.action), form: Self.replyFields(form, text: text), isIdempotent: false))
      // The session check comes after reading the result: a reply the forum accepted must be reported as posted.
      let document = try PageReader.document(from: response, page: "reply result")
      let result = try scrape("reply result") { try PageScrapers.replyResult(document) }
      logger.info("posted a forum reply", metadata: ["thread": "\(threadID)"])
      return result
    }
  }

  /// What the forum's Quote button puts in the reply box for post `postID`: `[quote="Name" post="P"]`, the post's
  /// BBCode (without the quotes it holds itself), `[/quote]` and a blank line, as the form's `message` textarea holds
  /// it (entities decoded, line breaks as `\n`). Nothing is posted. A post that does not exist is
  /// `ForumsClientError.notFound`; a post in a closed thread is `.threadClosed` (the forum shows no form for it).
  package func quote(postID: String) async throws -> String {
    try await withSession {
      let (formPage, _) = try await fetchDocument(
        .get("newreply.php", [("action", "newreply"), ("postid", postID)]), page: "quote form")
      // Quoting posts nothing, so probation does not refuse it; the banner is still noted for `status`.
      note(PageScrapers.probation(formPage, timeZone: configuration.timeZone))
      let form = try scrape("quote form") { try PageScrapers.replyForm(formPage) }
      return form.message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
  }

  /// The form's `action` as an endpoint relative to the base URL (every forum endpoint sits at its root, and an
  /// absolute `/newreply.php` would escape a base URL with a path).
  static func endpoint(ofFormAction action: String, default fallback: String = "newreply.php") -> String {
    let name = action.split(separator: "?").first.flatMap { $0.split(separator: "/").last }.map(String.init)
    return name.flatMap { $0.hasSuffix(".php") ? $0 : nil } ?? fallback
  }

  /// Every field the form would submit, `message` filled in (CRLF line breaks), and the "Submit Reply" button.
  static func replyFields(_ form: ReplyForm, text: String) -> [FormField] {
    var fields = form.fields.filter { $0.name != "message" }.map { FormField($0.name, $0.value) }
    fields.append(FormField("message", text, kind: .textarea))
    let submit =
      form.submitButtons.first { $0.name == "submit" } ?? ReplyForm.Field(name: "submit", value: "Submit Reply")
    fields.append(FormField(submit.name, submit.value))
    return fields
  }
}
