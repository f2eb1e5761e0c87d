import AsyncHTTPClient
import Foundation

/// Follows a link the bot printed, the way a reader's browser would: logged in to the forum emulator as an
/// ordinary member, redirects followed, and says whether the page it lands on holds the post the link names.
package final class ForumLinkFollower: Sendable {
  package struct Landing: Sendable {
    /// The last URL requested (after redirects).
    package var url: String
    package var status: Int
    package var body: String

    /// Whether the page shows the post (`<table class="post" id="post<ID>">`).
    package func shows(postID: String) -> Bool { body.contains("id=\"post\(postID)\"") }
  }

  private let http = HTTPClient(
    eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
  private let cookie: String

  private init(cookie: String) { self.cookie = cookie }

  /// Logs in to the emulator at `baseURL` as `username` (a reader, not the bot).
  package static func loggedIn(to baseURL: URL, username: String, password: String) async throws -> ForumLinkFollower {
    let login = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    let boundary = "awfulbot-link-follower"
    var body = ""
    for (name, value) in [("action", "login"), ("username", username), ("password", password)] {
      body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    body += "--\(boundary)--\r\n"
    var request = HTTPClientRequest(url: baseURL.absoluteString.trimmingSlash + "/account.php?json=1")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
    request.body = .bytes(Array(body.utf8))
    let response: HTTPClientResponse
    do {
      response = try await login.execute(request, timeout: .seconds(30))
      _ = try await response.body.collect(upTo: 1 << 20)
    } catch {
      try? await login.shutdown()
      throw error
    }
    try await login.shutdown()
    let cookies = response.headers["Set-Cookie"].compactMap { $0.split(separator: ";").first.map(String.init) }
    return ForumLinkFollower(cookie: cookies.joined(separator: "; "))
  }

  /// GETs `link` (the fragment is what a browser keeps to itself), following up to five redirects.
  package func follow(_ link: String) async throws -> Landing {
    var url = String(link.split(separator: "#", maxSplits: 1).first ?? "")
    for _ in 0..<6 {
      var request = HTTPClientRequest(url: url)
      request.headers.add(name: "Cookie", value: cookie)
      let response = try await http.execute(request, timeout: .seconds(30))
      let collected = try await response.body.collect(upTo: 32 << 20)
      if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
        url = URL(string: location, relativeTo: URL(string: url))?.absoluteString ?? location
        continue
      }
      // The emulator speaks windows-1252 like the forum; the anchors looked for are ASCII either way.
      let text = String(decoding: collected.readableBytesView, as: UTF8.self)
      return Landing(url: url, status: Int(response.status.code), body: text)
    }
    throw FollowError(link: link)
  }

  package func shutdown() async throws { try await http.shutdown() }

  /// Runs `body` with a follower logged in as `username`, and always shuts it down.
  package static func with<T>(
    _ baseURL: URL, username: String, password: String, _ body: (ForumLinkFollower) async throws -> T
  ) async throws -> T {
    let follower = try await loggedIn(to: baseURL, username: username, password: password)
    do {
      let result = try await body(follower)
      try await follower.shutdown()
      return result
    } catch {
      try? await follower.shutdown()
      throw error
    }
  }

  struct FollowError: Error, CustomStringConvertible {
    var link: String
    var description: String { "too many redirects following \(link)" }
  }
}

extension String {
  fileprivate var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
