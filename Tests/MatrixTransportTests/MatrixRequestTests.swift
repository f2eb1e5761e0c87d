import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

@Suite("Matrix request building")
struct MatrixRequestTests {
  let homeserver = URL(string: "https://matrix.example.org/")!

  @Test("room ids, event types and transaction ids are percent-encoded path segments")
  func sendPath() {
    let request = MatrixRequest.v3(
      .put, ["rooms", "!abc:example.org", "send", "m.room.message", "matrix:!abc:example.org:post/7?x#y"],
      body: ["msgtype": "m.notice"], accessToken: "secret")
    #expect(
      request.url(homeserver: homeserver)
        == "https://matrix.example.org/_matrix/client/v3/rooms/%21abc%3Aexample.org/send/m.room.message/"
        + "matrix%3A%21abc%3Aexample.org%3Apost%2F7%3Fx%23y")
  }

  @Test("aliases keep their # inside the path")
  func aliasPath() {
    let request = MatrixRequest.v3(.post, ["join", "#goons:example.org"], body: [:])
    #expect(request.url(homeserver: homeserver).hasSuffix("/_matrix/client/v3/join/%23goons%3Aexample.org"))
  }

  @Test("query values such as a JSON filter are fully encoded")
  func query() {
    let request = MatrixRequest.v3(.get, ["sync"], query: [("filter", #"{"a":[1]}"#), ("since", "s1_2&3")])
    #expect(
      request.url(homeserver: homeserver)
        == "https://matrix.example.org/_matrix/client/v3/sync?filter=%7B%22a%22%3A%5B1%5D%7D&since=s1_2%263")
  }

  @Test("the log form of a request has neither the token nor the query")
  func logPath() {
    let request = MatrixRequest.v3(.get, ["sync"], query: [("since", "x")], accessToken: "syt_secret")
    #expect(request.logPath == "/_matrix/client/v3/sync")
    #expect(!request.logPath.contains("secret"))
  }

  @Test("the sync filter asks for messages, reactions, membership, power levels and encryption only")
  func filter() throws {
    let json = MatrixClient.compactJSON(MatrixSyncFilter.filter(timelineLimit: 10))
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    #expect(decoded["presence"]?["not_types"] == ["*"])
    #expect(decoded["room"]?["ephemeral"]?["not_types"] == ["*"])
    #expect(decoded["room"]?["timeline"]?["limit"]?.intValue == 10)
    #expect(
      decoded["room"]?["timeline"]?["types"] == [
        "m.room.message", "m.reaction", "m.room.member", "m.room.power_levels", "m.room.encrypted",
        "m.room.encryption",
      ])
    #expect(decoded["room"]?["state"]?["types"]?.arrayValue?.contains("m.room.encryption") == true)
    #expect(json.contains(#""limit":10"#), "integers stay integers on the wire")
    #expect(decoded["room"]?["timeline"]?["not_senders"] == nil)
  }

  @Test("the busy filter leaves the bot's own events out of the timeline only")
  func busyFilter() throws {
    let json = MatrixClient.compactJSON(MatrixSyncFilter.filter(leavingOut: "@bot:example.org"))
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    #expect(decoded["room"]?["timeline"]?["not_senders"] == ["@bot:example.org"])
    #expect(decoded["room"]?["state"]?["not_senders"] == nil)
    #expect(decoded["room"]?["include_leave"] == true)
  }

  @Test("error bodies give errcode, message and the longer of retry_after_ms and Retry-After")
  func errorParsing() {
    let body = Array(#"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":1500}"#.utf8)
    let error = MatrixAPIError.parse(status: 429, body: body, retryAfterHeader: "3")
    #expect(error.errcode == "M_LIMIT_EXCEEDED")
    #expect(error.isRateLimited)
    #expect(error.retryAfter == .seconds(3))
    let bodyOnly = MatrixAPIError.parse(status: 429, body: body, retryAfterHeader: nil)
    #expect(bodyOnly.retryAfter == .milliseconds(1500))
    let html = MatrixAPIError.parse(status: 502, body: Array("<html>Bad gateway</html>".utf8), retryAfterHeader: nil)
    #expect(html.errcode == nil)
    #expect(html.isServerError)
    #expect(html.description == "HTTP 502")
  }

  @Test("Retry-After as an HTTP date")
  func retryAfterDate() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let later = "Tue, 14 Nov 2023 22:13:30 GMT"  // 10 s after `now`
    #expect(MatrixAPIError.parseRetryAfter(later, now: now) == .seconds(10))
    #expect(MatrixAPIError.parseRetryAfter("soon", now: now) == nil)
  }
}
