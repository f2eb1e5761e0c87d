import ForumModel
import Foundation

/// Whether a picture's address is one of the forum's own attachments (`attachment.php?attachmentid=N`, relative or
/// absolute on the forum's host and port), which only a logged-in session may fetch.
enum ForumAttachmentAddress: Equatable {
  /// An attachment: its number (digits, no leading zeros) and its absolute address with nothing else in the query.
  case attachment(id: String, url: String)
  /// The forum's `attachment.php` without a number it could hold (missing, not digits, zero, too large).
  case junk
  /// Any other address: an off-site picture or another page of the forum.
  case other

  /// Reads `address` (already absolute: resolved against the page) as the forum the page came from would serve it
  /// (`page` nil: the forum itself).
  static func read(_ address: String, forum page: URL?) -> ForumAttachmentAddress {
    let forum = page ?? LinkParsing.forumBaseURL
    // Cheap test first: this runs for every picture of every post.
    guard address.utf8.count < 4096, address.range(of: "attachment.php", options: .caseInsensitive) != nil,
      // An address with characters a URL may not hold (the forum's page may carry them) is read escaped.
      let components = URLComponents(string: address)
        ?? address.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed).flatMap(URLComponents.init),
      let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = components.host?.lowercased(),
      components.path.lowercased() == "/attachment.php"
    else { return .other }
    let forumHost = forum.host?.lowercased()
    // The forum is one site on http and https; an explicit port must be the forum's (the emulator's, in tests).
    let samePort =
      (components.port == nil && forum.port == nil)
      || port(of: components.port, scheme: scheme) == port(of: forum)
    guard host == forumHost, samePort else { return .other }
    guard let raw = components.queryItems?.first(where: { $0.name.lowercased() == "attachmentid" })?.value,
      let id = number(raw)
    else { return .junk }
    var canonical = URLComponents()
    canonical.scheme = scheme
    canonical.host = components.host
    canonical.port = components.port
    canonical.path = "/attachment.php"
    canonical.percentEncodedQuery = "attachmentid=\(id)"
    guard let url = canonical.string else { return .junk }
    return .attachment(id: id, url: url)
  }

  /// The attachment number in `raw`: ASCII digits only, within `1...Clamp.forumNumber` (a number the forum could
  /// hold; a larger one is refused rather than clamped onto another attachment), without leading zeros.
  static func number(_ raw: String) -> String? {
    guard !raw.isEmpty, raw.utf8.count <= 12, raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let value = Int(raw), Clamp.forumNumber(value, atLeast: 1) == value
    else { return nil }
    return String(value)
  }

  private static func port(of url: URL) -> Int {
    return port(of: url.port, scheme: url.scheme?.lowercased() ?? "https")
  }

  /// The port a connection goes to: the given one, else the scheme's (the forum is one site on http and https).
  private static func port(of port: Int?, scheme: String) -> Int {
    if let port { return port }
    return scheme == "http" ? 80 : 443
  }
}
