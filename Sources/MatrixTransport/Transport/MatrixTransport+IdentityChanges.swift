import ChatBridge
import Foundation
import MatrixCrypto
import MatrixModel

/// What the rooms hear when someone's identity changes: the bot stops trusting that user's devices (see
/// `LibOlmEncryption+IdentityPins`) and says so once in each encrypted room it shares with them, as Element warns
/// of an identity change, so nobody wonders why their commands go unanswered.
extension MatrixTransport {
  /// Tells the rooms about identity changes not announced yet. A room that cannot be told now is left for the next
  /// sync; the change counts as announced once every room shared with the user has heard.
  func reportIdentityChanges() async {
    guard let crypto = state.withLock({ $0.signIn.crypto }) else { return }
    let changes = await crypto.identityChangesToAnnounce()
    guard !changes.isEmpty else { return }
    let rooms = state.withLock { $0.rooms.directory.encrypted.intersection($0.rooms.directory.joined) }.sorted()
    for change in changes {
      var everyRoomTold = true
      for room in rooms {
        do {
          let members = try await authorized { token in
            try await self.client.joinedMembers(token: token, roomID: room)
          }
          guard members.contains(change.user) else { continue }
          _ = try await sendEvent(
            room: room, content: identityChangeContent(change, room: room).json,
            transactionID: "awfulbot-identity-\(room)-\(change.user)-\(change.currentMasterKey)")
        } catch {
          everyRoomTold = false
          logger.warning(
            "could not tell a room about an identity change",
            metadata: ["room": "\(room)", "user": "\(change.user)", "error": "\(error)"])
        }
      }
      if everyRoomTold { await crypto.identityChangeAnnounced(change) }
    }
  }

  func identityChangeContent(_ change: MatrixIdentityChange, room: String) -> MatrixRoomMessage {
    let name = state.withLock { $0.rooms.directory.displayName(of: change.user, in: room) }
    let who = name == change.user ? name : "\(name) (\(change.user))"
    let text =
      "\(who) has a new identity: their master key is now \(MatrixEncryptionSetup.grouped(change.currentMasterKey)). "
      + "Until my operator accepts it, I give their sessions no keys to this room and act on nothing they send. "
      + "If they reset it themselves, they can show my operator the new key; the operator adds it to "
      + "acceptedIdentities in my config."
    var content = MatrixMessageContent.plainContent(text: text, html: nil)
    content.mentions = MatrixMentions(userIDs: [change.user])
    return content
  }
}
