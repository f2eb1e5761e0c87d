import AwfulScraping
import ForumModel
import Foundation

extension ForumsClient {
  /// The bytes of the forum's attachment `id` (`GET attachment.php?attachmentid=N`), as a logged-in session gets
  /// them: in one request, through the politeness gate, walls and re-login like any page (a logged-out answer logs in
  /// again and asks once more). At most `maxBytes` are read; more is `bodyTooLarge`. An answer that is a page (the
  /// "must be a registered forums member" page the session could not get past, an error page for a deleted or unknown
  /// attachment, any other HTML) or no bytes at all is `attachmentRefused` with the reason. The bytes are not
  /// checked further: what they are is for the caller to sniff.
  package func attachment(id: String, maxBytes: Int) async throws -> [UInt8] {
    guard !id.isEmpty, id.utf8.count <= 10, id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(id),
      Clamp.forumNumber(number, atLeast: 1) == number
    else { throw ForumsClientError.attachmentRefused(id: id, reason: "it is not an attachment number.") }
    var request = ForumRequest.get("attachment.php", [("attachmentid", String(number))])
    request.maximumBodySize = max(maxBytes, 0)
    return try await withSession {
      let response = try await transport.send(request)
      return try await attachmentBytes(from: response, id: String(number))
    }
  }

  /// The file in `response`, or the typed error its page says.
  private func attachmentBytes(from response: ForumResponse, id: String) async throws -> [UInt8] {
    guard Self.isPage(response) else {
      guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
      guard !response.body.isEmpty else {
        throw ForumsClientError.attachmentRefused(id: id, reason: "the forum sent no bytes.")
      }
      try await checkSessionCookie()
      return response.body
    }
    // A page: the logged-out one (or a session the forum dropped) logs in again; an error page says why; anything
    // else is still not the file.
    switch PageReader.errorPage(in: response) {
    case .loggedOut?: throw SessionExpired()
    case .standard(let title, let message)?:
      let sentence = message.isEmpty ? title : message
      throw ForumsClientError.attachmentRefused(id: id, reason: "it showed the page \"\(sentence)\"")
    case let other?: throw ForumsClientError(other)
    case nil:
      try await checkSessionCookie()
      guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
      throw ForumsClientError.attachmentRefused(id: id, reason: "it answered with a web page instead of the file.")
    }
  }

  /// Whether the answer is a web page rather than a file: labelled HTML, or starting like markup whatever its label
  /// (the forum's error pages are HTML whatever was asked).
  static func isPage(_ response: ForumResponse) -> Bool {
    if let type = response.mediaType, type == "text/html" || type == "application/xhtml+xml" { return true }
    let first = response.body.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    return first == UInt8(ascii: "<")
  }
}
