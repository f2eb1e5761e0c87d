import ForumModel
import Foundation

/// What Discord answered one request: the status, the rate-limit headers, and the body (JSON, small).
struct DiscordAnswer: Sendable, Hashable {
  var status: Int
  var rateLimit: DiscordRateLimitHeaders
  var body: [UInt8]

  var isSuccess: Bool { (200..<300).contains(status) }

  /// The error body Discord sends with a 4xx (`{"code": 10015, "message": "Unknown Webhook"}`) or a 429
  /// (`{"message": …, "retry_after": 1.5, "global": false}`); empty fields where the body is not that.
  var error: DiscordErrorBody { DiscordErrorBody.read(body) }

  /// The message id of a `wait=true` send or an edit: the `id` of the message object; nil when the body has no id
  /// that is a snowflake.
  var messageID: String? {
    struct Message: Decodable { var id: String }
    guard let id = try? JSONNesting.decode(Message.self, from: Data(body)).id, DiscordWebhook.isSnowflake(id)
    else { return nil }
    return id
  }
}

/// Discord's JSON error body, each field read on its own (a field of the wrong type is left out, not the whole).
struct DiscordErrorBody: Sendable, Hashable {
  /// Discord's error code (`10015` unknown webhook, `10008` unknown message, `50035` invalid form body…).
  var code: Int?
  /// Discord's sentence as one line, controls stripped (whoever shows it blanks the token out first, then shortens
  /// it: see `DiscordTransport.refusal`).
  var message: String?
  /// A 429's wait, clamped (`Clamp.seconds`, at most a day).
  var retryAfter: Duration?
  /// A 429 that holds for every request of the bot, not only this webhook's.
  var global: Bool

  static func read(_ body: [UInt8]) -> DiscordErrorBody {
    /// Each field decodes on its own: a `retry_after` that is a string or out of range (`1e400`) loses only itself,
    /// not the code beside it.
    struct Lenient<Value: Decodable>: Decodable {
      var value: Value?
      init(from decoder: any Decoder) throws { value = try? decoder.singleValueContainer().decode(Value.self) }
    }
    struct Body: Decodable {
      var code: Lenient<Int>?
      var message: Lenient<String>?
      var retry_after: Lenient<Double>?
      var global: Lenient<Bool>?
    }
    let decoded = try? JSONNesting.decode(Body.self, from: Data(body))
    return DiscordErrorBody(
      code: decoded?.code?.value, message: decoded?.message?.value.map(safeLine),
      retryAfter: decoded?.retry_after?.value.map { Clamp.seconds($0, atMost: Clamp.day) },
      global: decoded?.global?.value == true)
  }

  /// An outside sentence as one line: controls and invisible formatting removed.
  static func safeLine(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator: scalars.append(" ")
      default: scalars.append(scalar)
      }
    }
    return String(scalars).trimmingCharacters(in: .whitespaces)
  }

  /// At most `limit` characters, a cut marked with "…".
  static func shortened(_ line: String, to limit: Int = 200) -> String {
    line.count > limit ? String(line.prefix(limit)) + "…" : line
  }
}
