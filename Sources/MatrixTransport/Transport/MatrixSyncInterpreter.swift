import ChatBridge
import MatrixModel

/// An invite waiting for the bot's answer.
package struct MatrixInvite: Sendable, Hashable {
  package var room: String
  package var inviter: String?
  package var isDirect: Bool
}

/// What one `/sync` answer means for the bot, in timeline order.
package struct MatrixSyncBatch: Sendable, Hashable {
  package var invites: [MatrixInvite] = []
  /// Messages that may be commands and reactions, in timeline order, with the sender's role as of that point.
  package var events: [ChatEvent] = []
  package var membershipChanges: [MatrixMembershipChange] = []
  /// Joined rooms whose power levels are still unknown (not in the answer), to be fetched.
  package var roomsWithoutPowerLevels: [String] = []
  /// Joined rooms this answer shows to be end-to-end encrypted: their `m.room.encryption` state (also on the first
  /// sync), or an encrypted event from someone else (not in skipped history). Each may need the encryption notice.
  package var encryptedRooms: [String] = []

  package var messages: [IncomingMessage] {
    events.compactMap { if case .message(let message) = $0 { message } else { nil } }
  }

  package var reactions: [IncomingReaction] {
    events.compactMap { if case .reaction(let reaction) = $0 { reaction } else { nil } }
  }
}

/// Reads sync answers. Pure apart from the directory it keeps current, so it is tested on hand-written JSON.
package struct MatrixSyncInterpreter: Sendable {
  package var transportName: String
  package var ownUserID: String
  package var roles: MatrixRoleMapping

  package init(transportName: String, ownUserID: String, roles: MatrixRoleMapping) {
    self.transportName = transportName
    self.ownUserID = ownUserID
    self.roles = roles
  }

  /// - Parameter isInitial: the first sync after the bot was created: history is never taken as commands and old
  ///   membership changes are not reported; state (rooms, power levels) is still read.
  package func interpret(_ response: MatrixSyncResponse, directory: inout MatrixRoomDirectory, isInitial: Bool)
    -> MatrixSyncBatch
  {
    var batch = MatrixSyncBatch()
    let rooms = response.rooms
    for (room, invited) in (rooms?.invite ?? [:]).sorted(by: { $0.key < $1.key }) {
      let own = invited.inviteState?.events?.last {
        $0.stateKey == ownUserID && $0.content(as: MatrixMember.self)?.membership == "invite"
      }
      batch.invites.append(
        MatrixInvite(
          room: room, inviter: own?.sender, isDirect: own?.content(as: MatrixMember.self)?.isDirect ?? false))
    }
    for (room, joined) in (rooms?.join ?? [:]).sorted(by: { $0.key < $1.key }) {
      let wasJoined = directory.joined.contains(room)
      directory.joined.insert(room)
      if !wasJoined && !isInitial {
        batch.membershipChanges.append(MatrixMembershipChange(room: room, kind: .joined, by: ownUserID))
      }
      var encrypted = false
      // The directory learns of encryption at once, so a plain event later in the same answer is already one in
      // an encrypted room (`trust`).
      for event in joined.state?.events ?? [] {
        apply(state: event, room: room, directory: &directory)
        if Self.isEncryptionState(event) {
          directory.encrypted.insert(room)
          encrypted = true
        }
      }
      for event in joined.timeline?.events ?? [] {
        if event.stateKey != nil {
          apply(state: event, room: room, directory: &directory)
          if Self.isEncryptionState(event) {
            directory.encrypted.insert(room)
            encrypted = true
          }
          continue
        }
        guard !isInitial else { continue }
        if event.type == MatrixEncrypted.eventType, event.sender != ownUserID {
          encrypted = true
          directory.encrypted.insert(room)
        } else if let incoming = incoming(from: event, room: room, directory: directory) {
          batch.events.append(incoming)
        }
      }
      if encrypted {
        batch.encryptedRooms.append(room)
      }
      if directory.powerLevels[room] == nil || directory.creators[room] == nil {
        batch.roomsWithoutPowerLevels.append(room)
      }
    }
    for (room, left) in (rooms?.leave ?? [:]).sorted(by: { $0.key < $1.key }) {
      let events = (left.state?.events ?? []) + (left.timeline?.events ?? [])
      let own = events.last { $0.type == MatrixMember.eventType && $0.stateKey == ownUserID }
      let wasJoined = directory.joined.contains(room)
      directory.forget(room: room)
      guard !isInitial, let own else { continue }
      let member = own.content(as: MatrixMember.self)
      let reason = member?.reason
      switch member?.membership {
      case "ban":
        batch.membershipChanges.append(
          MatrixMembershipChange(room: room, kind: .banned, by: own.sender, reason: reason))
      case "leave" where own.sender != ownUserID && wasJoined:
        batch.membershipChanges.append(
          MatrixMembershipChange(room: room, kind: .kicked, by: own.sender, reason: reason))
      case "leave" where wasJoined:
        batch.membershipChanges.append(MatrixMembershipChange(room: room, kind: .left, by: own.sender, reason: reason))
      default:
        break
      }
    }
    return batch
  }

  /// Any `m.room.encryption` state, even redacted: encryption cannot be turned off again, so once seen it holds.
  private static func isEncryptionState(_ event: MatrixEvent) -> Bool {
    event.type == MatrixRoomEncryption.eventType && event.stateKey == ""
  }

  private func apply(state event: MatrixEvent, room: String, directory: inout MatrixRoomDirectory) {
    guard event.stateKey == "" || event.type == MatrixMember.eventType else { return }
    // Content that is not an object reads as empty, with the spec's defaults, as a redacted event's does.
    if event.type == MatrixPowerLevels.eventType {
      directory.powerLevels[room] = event.content(as: MatrixPowerLevels.self) ?? MatrixPowerLevels()
    } else if event.type == MatrixRoomCreate.eventType {
      directory.creators[room] = MatrixPowerLevels.privilegedCreators(
        createEvent: event.content(as: MatrixRoomCreate.self) ?? MatrixRoomCreate(), sender: event.sender)
    } else if let user = event.stateKey, event.type == MatrixMember.eventType {
      let member = event.content(as: MatrixMember.self)
      if member?.membership == "join", let name = member?.displayname {
        directory.displayNames[room, default: [:]][user] = name
      } else if member?.membership != "join" {
        directory.displayNames[room]?[user] = nil
      }
    }
  }

  /// What the engine hears of a timeline event: a message or a reaction someone else sent; nil for everything else.
  /// Decrypted events come here too, their relation taken from the cleartext (see `MatrixTransport.decrypt`).
  package func incoming(from event: MatrixEvent, room: String, directory: MatrixRoomDirectory) -> ChatEvent? {
    switch event.type {
    case MatrixRoomMessage.eventType: message(from: event, room: room, directory: directory).map(ChatEvent.message)
    case MatrixReaction.eventType: reaction(from: event, room: room, directory: directory).map(ChatEvent.reaction)
    default: nil
    }
  }

  /// A text message someone else wrote, not an edit; nil for everything that must never run a command. A reply
  /// names the event it answers (`replyTo`, see `MatrixRelation.replyTo`), its quoted fallback removed from the text.
  package func message(from event: MatrixEvent, room: String, directory: MatrixRoomDirectory) -> IncomingMessage? {
    guard let content = event.content(as: MatrixRoomMessage.self), let sender = event.sender, sender != ownUserID,
      content.msgtype == MatrixMessageType.text, var text = content.body
    else { return nil }
    if content.isEdit { return nil }
    let replyTo = content.relatesTo?.replyTo
    if replyTo != nil { text = MatrixRelation.strippingReplyFallback(text) }
    return IncomingMessage(
      transport: transportName, room: room, senderID: sender,
      senderName: directory.displayName(of: sender, in: room), text: text, messageID: event.eventID,
      isDirect: directory.direct.contains(room),
      transportRole: roles.role(of: sender, in: directory.effectivePowerLevels(in: room)),
      configuredRole: roles.userOverrides[sender], replyTo: replyTo,
      trust: Self.trust(of: event, room: room, directory: directory),
      relationTrust: Self.relationTrust(of: event, room: room, directory: directory))
  }

  /// A plain event in a room the bot knows is encrypted passed no device check: whoever holds the sender's token,
  /// or the homeserver itself, could have sent it. Decrypted events passed the policy in `decrypt`.
  static func trust(of event: MatrixEvent, room: String, directory: MatrixRoomDirectory) -> SenderTrust {
    directory.encrypted.contains(room) && !event.wasEncrypted ? .unencryptedInEncryptedRoom : .trusted
  }

  /// In an encrypted room a relation is read where the spec and Element put it, in the clear envelope (see
  /// `MatrixTransport.withCleartextRelation`), so the homeserver wrote it as much as the sender did: it can make any
  /// encrypted line a reply to a relay, and choose an encrypted reaction's key and target. A decrypted event is one
  /// in an encrypted room even before the directory shows it.
  static func relationTrust(of event: MatrixEvent, room: String, directory: MatrixRoomDirectory) -> RelationTrust {
    directory.encrypted.contains(room) || event.wasEncrypted ? .serverControlled : .asSender
  }

  /// An `m.reaction` someone else sent (`IncomingReaction` drops a trailing variation selector from its key); nil
  /// for the bot's own and for anything that is not an annotation with a target and a key.
  package func reaction(from event: MatrixEvent, room: String, directory: MatrixRoomDirectory) -> IncomingReaction? {
    guard let content = event.content(as: MatrixReaction.self), let sender = event.sender, sender != ownUserID,
      let annotation = content.relatesTo?.annotation
    else { return nil }
    return IncomingReaction(
      transport: transportName, room: room, senderID: sender,
      senderName: directory.displayName(of: sender, in: room), target: annotation.target,
      key: annotation.key, reactionID: event.eventID,
      transportRole: roles.role(of: sender, in: directory.effectivePowerLevels(in: room)),
      configuredRole: roles.userOverrides[sender], trust: Self.trust(of: event, room: room, directory: directory),
      relationTrust: Self.relationTrust(of: event, room: room, directory: directory))
  }
}
