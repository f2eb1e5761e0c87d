/// The forum's own attachments: what `attachment.php` serves to a logged-in session.
extension ForumState {
  /// Stores a file as attachment `id` (or the next number) and returns its number; a post shows it with
  /// `[img]attachment.php?attachmentid=N[/img]` (relative, as the forum's posts hold it).
  @discardableResult
  package func addAttachment(bytes: [UInt8], contentType: String, id: Int? = nil) -> Int {
    attachments.add(.init(bytes: bytes, contentType: contentType), id: id)
  }

  /// Deletes an attachment, as an edit that removes it does: its number then gets the forum's error page.
  @discardableResult
  package func removeAttachment(_ id: Int) -> Bool { attachments.remove(id) }

  /// Adds a post showing a new attachment after `body` (BBCode); returns the post's and the attachment's numbers.
  package func addPost(
    thread threadID: Int, author: Int, body: String, attachment bytes: [UInt8], contentType: String
  ) throws -> (postID: Int, attachmentID: Int) {
    let attachmentID = addAttachment(bytes: bytes, contentType: contentType)
    let separator = body.isEmpty ? "" : "\n"
    let postID = try addPost(
      thread: threadID, author: author,
      body: "\(body)\(separator)[img]attachment.php?attachmentid=\(attachmentID)[/img]")
    return (postID, attachmentID)
  }
}
