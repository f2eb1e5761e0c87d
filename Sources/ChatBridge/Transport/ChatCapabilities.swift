/// What a transport can do that changes what the engine decides to say. How a message looks (HTML, line budgets)
/// is the transport's own business, decided by its renderer at send time, so it is not declared here.
package struct ChatCapabilities: Sendable, Hashable {
  /// The transport can replace an earlier message (`OutgoingMessage.replaces`): summary bursts are edited in place.
  package var edits: Bool
  /// The transport can group messages in threads (`OutgoingMessage.threadKey`).
  package var threads: Bool

  package init(edits: Bool = false, threads: Bool = false) {
    self.edits = edits
    self.threads = threads
  }

  package static let plainText = ChatCapabilities()
}
