import Foundation

/// A Discord incoming webhook, `https://discord.com/api/webhooks/<id>/<token>`. The token is a secret: whoever holds
/// it can post, edit and delete as the webhook in its channel. So the URL is kept whole only to build requests, and
/// everything that is shown (`description`, `logPath`, every error the transport throws) names the webhook by its id
/// alone. Loopback `http` is accepted for the local receiver the tests and the crash proof run (FakeDiscord); any
/// other address must be `https`.
package struct DiscordWebhook: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// Everything before `/webhooks/`: `https://discord.com/api` (or `/api/v10`).
  let apiBase: String
  /// The webhook's id (a snowflake: digits), not a secret.
  package let id: String
  let token: String

  /// Reads a webhook URL; nil (with why, never echoing the URL) when it is not one.
  package static func parse(_ written: String) -> Result<DiscordWebhook, Problem> {
    guard let components = URLComponents(string: written.trimmingCharacters(in: .whitespaces)),
      let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
    else { return .failure(.notAURL) }
    guard components.query == nil, components.fragment == nil, components.user == nil, components.password == nil
    else { return .failure(.extraParts) }
    let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
    guard scheme == "https" || (scheme == "http" && loopback) else { return .failure(.notHTTPS) }
    let parts = components.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 3, parts[parts.count - 3] == "webhooks" else { return .failure(.notAWebhookPath) }
    let id = parts[parts.count - 2]
    let token = parts[parts.count - 1]
    guard isSnowflake(id), (1...200).contains(token.utf8.count),
      token.unicodeScalars.allSatisfy({ tokenCharacters.contains($0) })
    else { return .failure(.notAWebhookPath) }
    var base = host.contains(":") && !host.hasPrefix("[") ? "\(scheme)://[\(host)]" : "\(scheme)://\(host)"
    if let port = components.port { base += ":\(port)" }
    base += parts.dropLast(3).joined(separator: "/")
    return .success(DiscordWebhook(apiBase: base, id: id, token: token))
  }

  init(apiBase: String, id: String, token: String) {
    self.apiBase = apiBase
    self.id = id
    self.token = token
  }

  /// Why a written value is not a webhook URL. The sentences never repeat the value: it holds the token.
  package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
    case notAURL
    case extraParts
    case notHTTPS
    case notAWebhookPath

    package var description: String {
      let shape = "expected a webhook URL like https://discord.com/api/webhooks/<id>/<token>"
      return switch self {
      case .notAURL: "\(shape) (this is not a URL)"
      case .extraParts: "\(shape), without a query, fragment or user name (the bot adds ?wait=true itself)"
      case .notHTTPS: "\(shape): a webhook goes over https (plain http only to a receiver on this machine)"
      case .notAWebhookPath: "\(shape): the path must end in /webhooks/<numeric id>/<token>"
      }
    }
  }

  /// A Discord id: 1 to 20 ASCII digits (a 64-bit number).
  package static func isSnowflake(_ text: String) -> Bool {
    (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
  }

  /// The characters of the tokens Discord makes (letters, digits, `-`, `_`): nothing that would change the path.
  private static let tokenCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

  /// `POST` here sends a message; `wait=true` makes Discord answer with the message (its id is the receipt).
  var executeURL: String { "\(apiBase)/webhooks/\(id)/\(token)?wait=true" }

  /// The webhook itself (`GET`: its name and channel, for `check`).
  var webhookURL: String { "\(apiBase)/webhooks/\(id)/\(token)" }

  /// `PATCH` edits, `DELETE` removes a message this webhook sent. `messageID` must be a snowflake (see `isSnowflake`).
  func messageURL(_ messageID: String) -> String { "\(apiBase)/webhooks/\(id)/\(token)/messages/\(messageID)" }

  /// The request path as logs and errors show it: the token left out.
  func logPath(_ suffix: String = "") -> String { "/webhooks/\(id)/<token>\(suffix)" }

  /// `text` with the token blanked out: for anything that may have picked up the URL (a network error's text, an
  /// answer's message) before it is logged or put in an error.
  package func scrubbed(_ text: String) -> String {
    text.replacingOccurrences(of: token, with: "<token>")
  }

  package var description: String { "webhook \(id)" }
  package var debugDescription: String { description }
  /// `dump` and the default description of a type holding a webhook show its id, never the token.
  package var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
