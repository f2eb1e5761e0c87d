extension MatrixTransport {
  /// The configuration keys `reconfigure` applies to a running transport; a change to any other needs a restart.
  package static let liveKeys: Set<String> = ["rooms", "acceptedIdentities"]

  /// Joins the rooms a reloaded configuration adds to `rooms` (compared with `previous`, the configuration in force
  /// until now). A room taken out of the list is not left: `rooms`
  /// names what the bot joins at start, like an invite, and leaving a private room could not be undone without a
  /// new invite; the answer says so. Returns one sentence per change.
  package func reconfigure(from previous: MatrixTransportConfiguration, to next: MatrixTransportConfiguration) async
    -> [String]
  {
    var changes: [String] = []
    for room in next.rooms where !previous.rooms.contains(room) {
      // Remembered first: a reload that comes while the transport is still signing in is joined at sign-in.
      state.withLock { if !$0.rooms.roomsAddedLive.contains(room) { $0.rooms.roomsAddedLive.append(room) } }
      guard await session.currentToken != nil else {
        changes.append("will join \(room) at sign-in (the transport is still signing in)")
        continue
      }
      do {
        let roomID = try await joinConfigured(room)
        logger.info("joined configured room", metadata: ["room": "\(room)", "roomID": "\(roomID)"])
        changes.append("joined \(room)")
      } catch {
        changes.append("could not join \(room): \(error)")
      }
    }
    for room in previous.rooms where !next.rooms.contains(room) {
      changes.append("\(room) is no longer joined at start; the bot stays in it until it is removed from the room")
    }
    if next.acceptedIdentities != previous.acceptedIdentities, let crypto = state.withLock({ $0.signIn.crypto }) {
      await crypto.acceptIdentities(next.acceptedIdentities)
      for user in next.acceptedIdentities.keys.sorted() where previous.acceptedIdentities[user] == nil {
        changes.append("accepted the identity given for \(user)")
      }
    }
    return changes
  }
}
