import Foundation
import NIOHTTP1

/// A complete response from the forum, after redirects.
package struct ForumResponse: Sendable {
  package var status: Int
  package var headers: HTTPHeaders
  package var body: [UInt8]
  /// The URL that produced this response, including the fragment of the redirect that led to it (`#pti12`).
  package var url: URL

  package init(status: Int, headers: HTTPHeaders, body: [UInt8], url: URL) {
    self.status = status
    self.headers = headers
    self.body = body
    self.url = url
  }

  package var data: Data { Data(body) }

  package var isSuccess: Bool { (200...299).contains(status) }

  package var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

  /// The `Location` header resolved against the request URL.
  package var location: URL? {
    guard let value = headers.first(name: "location") else { return nil }
    return URL(string: value, relativeTo: url)?.absoluteURL
  }

  /// The media type of `Content-Type`, lower-cased, without parameters.
  package var mediaType: String? {
    headers.first(name: "content-type")?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
  }

  /// The `charset` parameter of `Content-Type`, lower-cased.
  package var charset: String? {
    guard let contentType = headers.first(name: "content-type") else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
      let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2, parts[0].lowercased() == "charset" {
        return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
      }
    }
    return nil
  }

  /// Whether the body looks like JSON (the forum does not always label it).
  package var looksLikeJSON: Bool {
    if mediaType == "application/json" { return true }
    let first = body.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }
}
