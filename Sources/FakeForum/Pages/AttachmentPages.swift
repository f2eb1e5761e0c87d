/// `attachment.php?attachmentid=N`: the forum's own attachments, served only to a logged-in session. Anyone else
/// gets the "must be a registered forums member" page (with `bbuserid` cleared, as every page that needs an account
/// answers); a number the forum does not hold gets its standard error page.
struct AttachmentPages: Sendable {
  let context: PageContext

  func attachment(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed: break
    }
    guard let id = request.int("attachmentid"), let file = state.attachments.attachment(id) else {
      return .html(ErrorPages.invalidAttachment())
    }
    return ForumResponse(status: 200, headers: [("Content-Type", file.contentType)], body: file.bytes, isHTML: false)
  }
}
