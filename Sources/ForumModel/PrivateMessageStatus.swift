import Foundation

/// Read/replied/forwarded state of a private message, from its status icon (`pm.gif`, `newpm.gif`, `pmreplied.gif`,
/// `pmforwarded.gif`).
package struct PrivateMessageStatus: Sendable, Hashable, Codable {
  package var hasBeenSeen: Bool
  package var wasForwarded: Bool
  package var wasRepliedTo: Bool

  package init(hasBeenSeen: Bool, wasForwarded: Bool, wasRepliedTo: Bool) {
    self.hasBeenSeen = hasBeenSeen
    self.wasForwarded = wasForwarded
    self.wasRepliedTo = wasRepliedTo
  }
}
