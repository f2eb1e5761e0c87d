import Foundation

/// The receiver's webhooks, the messages they took, the request log, rate-limit buckets and faults. It answers as
/// Discord's documentation says a webhook answers (see `handle`).
package actor FakeDiscordState {
  package struct Webhook: Sendable, Hashable {
    package var id: String
    package var token: String
    package var name: String
    package var channelID: String
  }

  /// A webhook's bucket: `limit` requests per `window` seconds, as Discord's `X-RateLimit-*` headers tell it.
  package struct BucketSettings: Sendable, Hashable {
    package var limit: Int
    package var window: Double

    package init(limit: Int, window: Double) {
      self.limit = limit
      self.window = window
    }

    /// Discord's usual webhook bucket: 5 requests per 2 seconds.
    package static let discord = BucketSettings(limit: 5, window: 2)
  }

  struct Bucket {
    var remaining: Int
    var resetAt: Double
  }

  /// Discord's limit on `content`, in code points.
  package static let contentLimit = 2_000

  package private(set) var webhooks: [String: Webhook] = [:]
  package private(set) var messages: [FakeDiscordMessage] = []
  package private(set) var requests: [FakeDiscordRequest] = []
  package var bucketSettings: BucketSettings
  private var buckets: [String: Bucket] = [:]
  private var fault: FakeDiscordFault?
  private var nextID: UInt64 = 1_300_000_000_000_000_000
  private let started = ContinuousClock.now

  package init(buckets: BucketSettings = .discord) {
    bucketSettings = buckets
  }

  /// Makes a webhook (`name` is what Discord shows as the author by default) and returns its path,
  /// `/api/webhooks/<id>/<token>`.
  package func addWebhook(name: String = "AwfulBot", channelID: String = "1100000000000000001") -> String {
    let id = makeID()
    let token = "fake-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    webhooks[id] = Webhook(id: id, token: token, name: name, channelID: channelID)
    return "/api/webhooks/\(id)/\(token)"
  }

  /// Deletes a webhook: requests to it get 404, code 10015.
  package func removeWebhook(id: String) { webhooks[id] = nil }

  package func setFault(_ fault: FakeDiscordFault?) { self.fault = fault }

  /// While set, requests get no answer at all (`FakeDiscordServer.goDown`): each waits until it is cleared.
  package private(set) var isDown = false

  package func setDown(_ down: Bool) { isDown = down }
  package func setBuckets(_ settings: BucketSettings) {
    bucketSettings = settings
    buckets = [:]
  }

  /// The messages of one webhook that are not deleted, oldest first.
  package func shown(webhookID: String) -> [FakeDiscordMessage] {
    messages.filter { $0.webhookID == webhookID && !$0.deleted }
  }

  /// Deletes a message as a moderator would on Discord.
  package func deleteMessage(id: String) {
    if let index = messages.firstIndex(where: { $0.id == id }) { messages[index].deleted = true }
  }

  /// Requests whose 429 came from an empty bucket: each one a request the client sent when the headers said wait.
  package var ignoredRateLimits: Int { requests.filter { $0.outcome == .rateLimited }.count }

  private func makeID() -> String {
    nextID += 1
    return String(nextID)
  }

  private var now: Double {
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  // MARK: Answering

  /// Answers one request to `/api[/v<n>]/webhooks/<id>/<token>[/messages/<message id>]`.
  package func handle(method: String, path: String, query: String?, body: [UInt8]) -> FakeDiscordResponse {
    var parts = path.split(separator: "/").map(String.init)
    if parts.first == "api" { parts.removeFirst() }
    if let first = parts.first, first.hasPrefix("v"), Int(first.dropFirst()) != nil { parts.removeFirst() }
    guard parts.count >= 3, parts[0] == "webhooks" else {
      return .error(404, code: 0, message: "404: Not Found")
    }
    let webhookID = parts[1]
    let rest = parts.count > 3 ? "/" + parts[3...].joined(separator: "/") : ""
    var record = FakeDiscordRequest(
      method: method, webhookID: webhookID, rest: rest, status: 0, outcome: .answered, at: now)
    defer { requests.append(record) }
    if let answer = takeFault() {
      record.status = answer.status
      record.outcome = .fault
      return answer
    }
    guard let webhook = webhooks[webhookID] else {
      let answer = FakeDiscordResponse.error(404, code: 10015, message: "Unknown Webhook")
      record.status = answer.status
      return answer
    }
    guard parts[2] == webhook.token else {
      let answer = FakeDiscordResponse.error(401, code: 50027, message: "Invalid Webhook Token")
      record.status = answer.status
      return answer
    }
    // The bucket: every answer carries its headers; an empty one answers 429 until it resets.
    let time = now
    var bucket = buckets[webhookID] ?? Bucket(remaining: bucketSettings.limit, resetAt: time + bucketSettings.window)
    if time >= bucket.resetAt {
      bucket = Bucket(remaining: bucketSettings.limit, resetAt: time + bucketSettings.window)
    }
    let resetAfter = max(bucket.resetAt - time, 0)
    if bucket.remaining <= 0 {
      buckets[webhookID] = bucket
      var answer = FakeDiscordResponse.rateLimited(retryAfter: resetAfter, global: false)
      answer.addBucketHeaders(limit: bucketSettings.limit, remaining: 0, resetAfter: resetAfter, webhookID: webhookID)
      record.status = 429
      record.outcome = .rateLimited
      return answer
    }
    bucket.remaining -= 1
    buckets[webhookID] = bucket
    var answer = route(method: method, webhook: webhook, rest: rest, query: query, body: body)
    answer.addBucketHeaders(
      limit: bucketSettings.limit, remaining: bucket.remaining, resetAfter: resetAfter, webhookID: webhookID)
    record.status = answer.status
    return answer
  }

  private func takeFault() -> FakeDiscordResponse? {
    switch fault {
    case .rateLimitStorm(let count, let retryAfter, let global):
      fault = count > 1 ? .rateLimitStorm(count: count - 1, retryAfter: retryAfter, global: global) : nil
      var answer = FakeDiscordResponse.rateLimited(retryAfter: retryAfter, global: global)
      if global { answer.headers.append(("X-RateLimit-Global", "true")) }
      return answer
    case .serverErrors(let count):
      fault = count > 1 ? .serverErrors(count: count - 1) : nil
      return FakeDiscordResponse(
        status: 500, body: Array(#"{"message": "500: Internal Server Error", "code": 0}"#.utf8))
    case .scripted(var answers):
      guard !answers.isEmpty else {
        fault = nil
        return nil
      }
      let next = answers.removeFirst()
      fault = answers.isEmpty ? nil : .scripted(answers)
      return FakeDiscordResponse(
        status: next.status, headers: next.headers.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) },
        body: Array(next.body.utf8))
    case nil:
      return nil
    }
  }

  private func route(method: String, webhook: Webhook, rest: String, query: String?, body: [UInt8])
    -> FakeDiscordResponse
  {
    switch (method, rest) {
    case ("GET", ""):
      return .json(
        200,
        [
          "id": webhook.id, "type": 1, "name": webhook.name, "channel_id": webhook.channelID,
          "guild_id": "1000000000000000001", "token": webhook.token, "application_id": NSNull(), "avatar": NSNull(),
        ])
    case ("POST", ""):
      let wait = (query ?? "").split(separator: "&").contains { $0.lowercased() == "wait=true" }
      let payload: MessagePayload
      switch MessagePayload.read(body) {
      case .success(let read): payload = read
      case .failure(let answer): return answer
      }
      guard let content = payload.content, !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        return .error(400, code: 50006, message: "Cannot send an empty message")
      }
      let message = FakeDiscordMessage(
        id: makeID(), webhookID: webhook.id, content: content, username: payload.username,
        allowedMentionsParse: payload.allowedMentionsParse, history: [], deleted: false)
      messages.append(message)
      return wait ? .json(200, messageObject(message, webhook: webhook)) : FakeDiscordResponse(status: 204)
    default:
      break
    }
    let segments = rest.split(separator: "/").map(String.init)
    guard segments.count == 2, segments[0] == "messages" else {
      return .error(405, code: 0, message: "405: Method Not Allowed")
    }
    guard let index = messages.firstIndex(where: { $0.id == segments[1] && $0.webhookID == webhook.id && !$0.deleted })
    else { return .error(404, code: 10008, message: "Unknown Message") }
    switch method {
    case "GET":
      return .json(200, messageObject(messages[index], webhook: webhook))
    case "PATCH":
      let payload: MessagePayload
      switch MessagePayload.read(body) {
      case .success(let read): payload = read
      case .failure(let answer): return answer
      }
      if let content = payload.content {
        guard !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
          return .error(400, code: 50006, message: "Cannot send an empty message")
        }
        messages[index].history.append(messages[index].content)
        messages[index].content = content
      }
      if let parse = payload.allowedMentionsParse { messages[index].allowedMentionsParse = parse }
      return .json(200, messageObject(messages[index], webhook: webhook))
    case "DELETE":
      messages[index].deleted = true
      return FakeDiscordResponse(status: 204)
    default:
      return .error(405, code: 0, message: "405: Method Not Allowed")
    }
  }

  private func messageObject(_ message: FakeDiscordMessage, webhook: Webhook) -> [String: Any] {
    [
      "id": message.id, "type": 0, "content": message.content, "channel_id": webhook.channelID,
      "webhook_id": webhook.id,
      "author": ["id": webhook.id, "username": message.username ?? webhook.name, "bot": true],
      "timestamp": "2026-12-07T05:00:00.000000+00:00",
      "edited_timestamp": message.history.isEmpty ? NSNull() : "2026-12-07T05:00:01.000000+00:00",
      "mentions": [Any](), "mention_roles": [Any](), "mention_everyone": false, "tts": false, "attachments": [Any](),
      "embeds": [Any](), "pinned": false, "flags": 0,
    ]
  }

  /// The fields of a send or an edit the receiver checks, with Discord's refusals.
  struct MessagePayload {
    var content: String?
    var username: String?
    var allowedMentionsParse: [String]?

    static func read(_ body: [UInt8]) -> Result<MessagePayload, FakeDiscordResponse> {
      guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
        return .failure(.error(400, code: 50109, message: "The request body contains invalid JSON."))
      }
      var payload = MessagePayload()
      payload.content = object["content"] as? String
      payload.username = object["username"] as? String
      if let mentions = object["allowed_mentions"] as? [String: Any] {
        payload.allowedMentionsParse = mentions["parse"] as? [String] ?? []
      }
      if let content = payload.content, content.unicodeScalars.count > FakeDiscordState.contentLimit {
        return .failure(
          .invalidFormBody(field: "content", code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length."))
      }
      if let username = payload.username {
        let lowered = username.lowercased()
        if lowered.contains("discord") || lowered.contains("clyde") {
          return .failure(
            .invalidFormBody(
              field: "username", code: "USERNAME_INVALID_CONTAINS",
              message: "Username cannot contain \"discord\" or \"clyde\""))
        }
        if username.isEmpty || username.count > 80 {
          return .failure(
            .invalidFormBody(
              field: "username", code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 80 in length."))
        }
      }
      return .success(payload)
    }
  }
}
