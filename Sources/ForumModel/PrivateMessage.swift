import Foundation

/// `private.php?action=show&privatemessageid=M`, scraped.
package struct PrivateMessage: Sendable, Hashable, Codable {
  package var id: String
  package var subject: String?
  package var author: PostAuthor?
  package var sentDate: Date?
  package var sentDateRaw: String?
  package var status: PrivateMessageStatus
  /// Inner HTML of `td.postbody`.
  package var bodyHTML: String
  /// The body as a rich-text tree, converted like a post body.
  @RichTextBody package var body: [RichText]
  /// The account's probation, when the page carries the banner.
  package var probation: Probation?

  package init(
    id: String, subject: String?, author: PostAuthor?, sentDate: Date?, sentDateRaw: String?,
    status: PrivateMessageStatus, bodyHTML: String, body: [RichText] = [], probation: Probation? = nil
  ) {
    self.id = id
    self.subject = subject
    self.author = author
    self.sentDate = sentDate
    self.sentDateRaw = sentDateRaw
    self.status = status
    self.bodyHTML = bodyHTML
    self.body = body
    self.probation = probation
  }
}
