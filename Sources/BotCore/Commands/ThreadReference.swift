import ChatBridge
import Foundation

/// A thread named in chat: an id, or a forum link to the thread or to one of its posts.
package enum ThreadReference: Sendable, Hashable {
  case thread(id: String)
  /// A post; its thread is known when the link said it (`threadid=…#post…`), else it is looked up.
  case post(id: String, threadID: String?)

  /// Hosts whose links the bot follows, besides the configured forum's own host.
  package static let forumHosts: Set<String> = ["forums.somethingawful.com", "archives.somethingawful.com"]

  package enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case foreignHost(String)
    case notAThreadLink
    case notAThread(String)

    package var description: String {
      switch self {
      case .foreignHost(let host): "Links to \(host) are not forum links; give a thread id or a forum link."
      case .notAThreadLink: "That link does not point to a thread or a post."
      case .notAThread(let text): "“\(text)” is neither a thread id nor a forum link."
      }
    }
  }

  /// Parses an id or a link. `baseURL` is the configured forum, whose host is accepted too.
  package static func parse(_ text: String, baseURL: URL) -> Result<ThreadReference, ParseError> {
    var candidate = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // Chat clients wrap links in <…>; Markdown-ish users in (…).
    if candidate.hasPrefix("<"), candidate.hasSuffix(">") { candidate = String(candidate.dropFirst().dropLast()) }
    if isID(candidate) { return .success(.thread(id: candidate)) }
    guard let url = link(candidate) else { return .failure(.notAThread(candidate)) }
    let host = url.host?.lowercased() ?? ""
    let allowed = forumHosts.union([baseURL.host?.lowercased()].compactMap { $0 })
    guard allowed.contains(host) else { return .failure(.foreignHost(host)) }
    return reference(in: url).map { .success($0) } ?? .failure(.notAThreadLink)
  }

  /// Reads a link (with or without scheme) when the text is one.
  static func link(_ text: String) -> URLComponents? {
    let withScheme = text.contains("://") ? text : "https://" + text
    guard let url = URLComponents(string: withScheme), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, host.contains(".")
    else { return nil }
    return url
  }

  /// What a forum URL points to: `showthread.php?threadid=T[#postP]`, `?goto=post&postid=P`,
  /// `?action=showpost&postid=P`, or any showthread link with a `#postP` fragment.
  static func reference(in url: URLComponents) -> ThreadReference? {
    guard url.path.hasSuffix("showthread.php") || url.path.hasSuffix("/showthread.php") else { return nil }
    let query = Dictionary(
      (url.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    let threadID = query["threadid"].flatMap { isID($0) ? $0 : nil }
    let fragmentPost = url.fragment.flatMap { fragment -> String? in
      guard fragment.hasPrefix("post") else { return nil }
      let id = String(fragment.dropFirst(4))
      return isID(id) ? id : nil
    }
    let queryPost = query["postid"].flatMap { isID($0) ? $0 : nil }
    if let postID = queryPost ?? fragmentPost {
      return .post(id: postID, threadID: threadID)
    }
    return threadID.map { .thread(id: $0) }
  }

  static func isID(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 18 && text.allSatisfy { $0.isASCII && $0.isNumber }
  }
}
