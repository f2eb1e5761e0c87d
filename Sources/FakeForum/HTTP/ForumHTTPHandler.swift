import Foundation
import Hummingbird

/// Bridges Hummingbird requests to the forum: decodes, logs, applies the delay fault, answers.
enum ForumHTTPHandler {
  static let maximumBodySize = 8 * 1024 * 1024

  static func handle(
    _ request: Request, state: ForumState, router: ForumRouter, admin: AdminAPI
  ) async throws -> Response {
    let path = request.uri.path
    let body = try await request.body.collect(upTo: maximumBodySize)
    let bodyBytes = Array(body.readableBytesView)
    let host = request.head.authority ?? "127.0.0.1"
    let baseURL = "http://\(host)"
    if path.hasPrefix("/_fake/") || path == "/_fake" {
      return response(
        await admin.handle(method: request.method.rawValue, path: path, query: request.uri.query, body: bodyBytes))
    }
    let forumRequest = ForumRequest(
      method: request.method.rawValue, path: path.isEmpty ? "/" : path,
      query: FormDecoder.decodeQuery(request.uri.query),
      form: FormDecoder.decodeBody(
        bodyBytes, contentType: request.headers[.contentType],
        defaultCharset: path == "/query.php" ? .utf8 : .windows1252),
      cookies: ForumRequest.parseCookies(request.headers[values: .cookie]), baseURL: baseURL)
    await state.log(
      LoggedRequest(
        method: forumRequest.method, path: forumRequest.path, query: forumRequest.query,
        form: forumRequest.form.map { field in
          field.name == "password" ? LoggedRequest.Field(name: field.name, value: "<redacted>") : field
        },
        cookieNames: forumRequest.cookies.keys.sorted(), timestamp: Date(),
        userAgent: request.headers[.userAgent]))
    // Pictures are logged like pages, so tests can count what the bot fetched.
    if path.hasPrefix("/images/") {
      var name = String(path.dropFirst("/images/".count))
      let parts = name.split(separator: "/", maxSplits: 2).map(String.init)
      // A picture host that takes its time (`slow/<seconds>/<name>`) or sends the fetcher round
      // (`redirect/<n>/<name>`: n redirects, then the picture; `slowredirect/<n>/<name>`: the same, a second a hop).
      if parts.count == 3, let number = Int(parts[1]), (0...600).contains(number) {
        switch parts[0] {
        case "slow":
          try await Task.sleep(for: .seconds(number))
          name = parts[2]
        case "slowredirect":
          try await Task.sleep(for: .seconds(1))
          guard number > 0 else {
            name = parts[2]
            break
          }
          return response(
            ForumResponse(
              status: 302, headers: [("Location", "/images/slowredirect/\(number - 1)/\(parts[2])")], body: [],
              isHTML: false))
        case "redirect" where number > 0:
          return response(
            ForumResponse(
              status: 302, headers: [("Location", "/images/redirect/\(number - 1)/\(parts[2])")], body: [],
              isHTML: false))
        case "redirect":
          name = parts[2]
        default:
          break
        }
      }
      guard let file = FakeImages.file(named: name) else { return response(.html("Not Found", status: 404)) }
      return response(
        ForumResponse(status: 200, headers: [("Content-Type", file.contentType)], body: file.bytes, isHTML: false))
    }
    let delay = await state.responseDelayMilliseconds()
    if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
    return response(await router.respond(to: forumRequest, state: state))
  }

  static func response(_ forumResponse: ForumResponse) -> Response {
    var fields = HTTPFields()
    func values(_ name: String) -> [String] { forumResponse.headers.filter { $0.name == name }.map(\.value) }
    // The forum only ever sends these three headers; the walls in front of it (`WallPages`) send their own.
    fields[values: .contentType] = values("Content-Type")
    fields[values: .location] = values("Location")
    fields[values: .setCookie] = values("Set-Cookie")
    for name in ["cf-mitigated", "Server", "Cache-Control", "Retry-After"] {
      guard !values(name).isEmpty else { continue }
      fields[values: .init(name)!] = values(name)
    }
    return Response(
      status: HTTPResponse.Status(code: forumResponse.status), headers: fields,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: forumResponse.body)))
  }
}
