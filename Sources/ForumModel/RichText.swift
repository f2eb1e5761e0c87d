import Foundation

/// A post body as a small tree the chat renderers understand. Anything the scraper does not recognise
/// becomes its children (unknown wrappers) or text, never raw HTML.
package indirect enum RichText: Sendable, Hashable, Codable {
  case text(String)
  case lineBreak
  case paragraph([RichText])
  case bold([RichText])
  case italic([RichText])
  case underline([RichText])
  case strike([RichText])
  case link(url: String, [RichText])
  case image(url: String)
  /// A `[timg]`: a picture the forum shows shrunk until it is clicked.
  case thumbnail(url: String)
  /// A quote block: `author` from "X posted:", `postID` from the quote link.
  case quote(author: String?, postID: String?, [RichText])
  case spoiler([RichText])
  case code(String)
  /// A smilie by its text code (`:nws:`), with the image URL.
  case smilie(code: String, url: String?)
  case video(url: String)
  case list([[RichText]])
  /// A picture the forum hosts itself (`attachment.php?attachmentid=N`): served only to a logged-in session, so it is
  /// fetched through the forum client, never as an off-site picture. `id` is the attachment's number (digits only),
  /// `url` its absolute address on the forum, which chat shows as a link. Last, so stored rows keep decoding.
  case attachment(id: String, url: String)
}
