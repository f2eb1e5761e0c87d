import Foundation
import ServiceLifecycle

/// What a transport can do. The engine never asks a transport for something it does not declare.
package struct ChatCapabilities: Sendable, Hashable {
  package var html: Bool
  package var edits: Bool
  package var threads: Bool
  /// Largest message body in bytes the transport accepts in one send (IRC splits below this itself).
  package var maxMessageBytes: Int
  /// Whether the transport distinguishes notices (bot output) from ordinary messages.
  package var notices: Bool

  package init(html: Bool, edits: Bool, threads: Bool, maxMessageBytes: Int, notices: Bool) {
    self.html = html
    self.edits = edits
    self.threads = threads
    self.maxMessageBytes = maxMessageBytes
    self.notices = notices
  }

  package static let plainText = ChatCapabilities(
    html: false, edits: false, threads: false, maxMessageBytes: 4000, notices: false)
}

/// A role in the bot's permission model, lowest first.
package enum Role: Int, Sendable, Hashable, Codable, Comparable, CaseIterable, CustomStringConvertible {
  case viewer = 0
  case member = 1
  case admin = 2

  package static func < (lhs: Role, rhs: Role) -> Bool { lhs.rawValue < rhs.rawValue }
  package var description: String {
    switch self {
    case .viewer: "viewer"
    case .member: "member"
    case .admin: "admin"
    }
  }
}

/// A message someone wrote in a room the bot is in.
package struct IncomingMessage: Sendable, Hashable {
  package var transport: String
  package var room: String
  package var senderID: String
  package var senderName: String
  package var text: String
  /// The transport's id of this message, for replies (Matrix event id).
  package var messageID: String?
  /// A private conversation with the bot (IRC query, Matrix DM).
  package var isDirect: Bool
  /// The role the transport itself grants (room power, channel op), when it has such a notion.
  package var transportRole: Role?
  /// The transport found the message addressed to the bot (IRC `nick: text`) and removed the address from `text`:
  /// the command parser reads it like a direct message.
  package var addressed: Bool

  package init(
    transport: String, room: String, senderID: String, senderName: String, text: String, messageID: String? = nil,
    isDirect: Bool = false, transportRole: Role? = nil, addressed: Bool = false
  ) {
    self.transport = transport
    self.room = room
    self.senderID = senderID
    self.senderName = senderName
    self.text = text
    self.messageID = messageID
    self.isDirect = isDirect
    self.transportRole = transportRole
    self.addressed = addressed
  }
}

/// What the bot sends. Stored as the outbox payload (JSON), so fields only ever get added.
package struct OutgoingMessage: Sendable, Hashable, Codable {
  package enum Kind: String, Sendable, Hashable, Codable {
    /// A relayed post, announcement, alert or digest.
    case relay
    /// An answer to a command.
    case reply
  }
  package var kind: Kind
  package var text: String
  /// Sanitised HTML, present only for transports with the `html` capability.
  package var html: String?
  /// The command message being answered, for transports that thread replies.
  package var inReplyTo: String?
  /// The receipt of an earlier message this one replaces (edits capability only).
  package var replaces: String?
  /// Groups messages of one forum thread (threads capability only).
  package var threadKey: String?
  /// A link to the forum post, so a transport that must cut a long message can end with it.
  package var link: String?

  package init(
    kind: Kind, text: String, html: String? = nil, inReplyTo: String? = nil, replaces: String? = nil,
    threadKey: String? = nil, link: String? = nil
  ) {
    self.kind = kind
    self.text = text
    self.html = html
    self.inReplyTo = inReplyTo
    self.replaces = replaces
    self.threadKey = threadKey
    self.link = link
  }
}

/// Proof that the chat service accepted a message (Matrix event id, IRC line count, console sequence).
package struct DeliveryReceipt: Sendable, Hashable, Codable {
  package var id: String
  package init(id: String) { self.id = id }
}

/// Why a send failed, so the dispatcher knows whether to retry.
package enum ChatSendError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Try again later (rate limit, network, 5xx); `after` when the service said how long.
  case retryable(reason: String, after: Duration?)
  /// Will never succeed for this room (forbidden, room gone); the row fails with the reason.
  case permanent(reason: String)

  package var description: String {
    switch self {
    case .retryable(let reason, _): "temporary failure: \(reason)"
    case .permanent(let reason): "permanent failure: \(reason)"
    }
  }
}

/// A chat service. Running it (`run()`) connects and keeps it connected; messages arrive on `incoming`.
package protocol ChatTransport: Service {
  /// Unique name of this connection in the config (`matrix`, `irc-libera`, `console`).
  var name: String { get }
  var capabilities: ChatCapabilities { get }
  var incoming: AsyncStream<IncomingMessage> { get }
  /// Sends one message. Must be idempotent per `idempotencyKey` where the service allows (Matrix txn id).
  func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt
}
