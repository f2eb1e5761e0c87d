import ChatBridge

extension IncomingReaction {
  /// The reaction as a message from its sender: roles, answers, logs and the answer's idempotency key treat it as
  /// one. Its id is the reaction's, or one made of what it is when the service gives none.
  var asMessage: IncomingMessage {
    IncomingMessage(
      transport: transport, room: room, senderID: senderID, senderName: senderName, text: key,
      messageID: reactionID ?? "reaction:\(target):\(senderID):\(key)", transportRole: transportRole,
      configuredRole: configuredRole,
      trust: trust, relationTrust: relationTrust)
  }
}
