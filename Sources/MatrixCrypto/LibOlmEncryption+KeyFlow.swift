import ChatBridge
import Foundation
import MatrixModel

/// Keys that keep flowing when something went wrong elsewhere: room-key requests from members' other devices, and
/// Olm sessions that no longer decrypt (the spec's "wedged" sessions).
extension LibOlmEncryption {
  /// Answers an `m.room_key_request` for one of the bot's own room sessions: only for a device the trust policy
  /// accepts, of a user who is in the room now, and that got the session's key itself; the key forwarded starts at
  /// the index that device got, so nobody reads through a request what was said before they could.
  func answerKeyRequest(_ request: MatrixRoomKeyRequest, from sender: String?) async throws {
    guard request.action == "request", let user = sender,
      let requester = request.requestingDeviceID, user != userID || requester != deviceID,
      let body = request.body, body.algorithm == MatrixAlgorithm.megolm,
      let room = body.roomID, let sessionID = body.sessionID,
      body.senderKey == nil || body.senderKey == identity.curve25519
    else { return }
    let key = MatrixCryptoStore.Key.inbound(room: room, senderKey: identity.curve25519, sessionID: sessionID)
    guard let record = try await store.read(MatrixCryptoStore.InboundRecord.self, key) else { return }
    func refuse(_ reason: String) {
      logger.info(
        "not answering a room key request",
        metadata: ["user": "\(user)", "device": "\(requester)", "room": "\(room)", "reason": "\(reason)"])
    }
    guard let firstIndex = record.sharedFromIndex?["\(user)|\(requester)"] else {
      return refuse("the session never went to that device")
    }
    members[room] = nil
    guard try await api.joinedMembers(room: room).contains(user) else { return refuse("not in the room") }
    guard let device = try await device(of: user, where: { $0.deviceID == requester }) else {
      return refuse("unknown device")
    }
    guard trusts(device) else { return refuse("the device is not verified by its owner") }
    let session = try MegolmInboundSession.unpickle(record.pickle, key: pickleKey)
    let forwarded = MatrixForwardedRoomKey(
      roomID: room, senderKey: identity.curve25519, sessionID: sessionID,
      sessionKey: try session.export(from: firstIndex), senderClaimedEd25519Key: identity.ed25519)
    let (messages, reached) = try await olmEncrypt(forwarded, for: [(user: user, device: device)])
    guard !reached.isEmpty else { return refuse("no Olm session could be made with the device") }
    try await api.sendToDevice(
      type: MatrixEventType.roomEncrypted, transactionID: "awfulbot-forward-\(UUID().uuidString)",
      messages: messages)
    logger.info(
      "answered a room key request", metadata: ["user": "\(user)", "device": "\(requester)", "room": "\(room)"])
  }

  /// An Olm message from this device did not open: the session between the two is wedged. Starts a new one (a fresh
  /// one-time key) and sends an encrypted `m.dummy` over it, so the other side replaces its session too; at most once
  /// an hour per device.
  func unwedge(sender: String, senderKey: String) async {
    do {
      guard let device = try await device(of: sender, where: { $0.curve25519 == senderKey }) else { return }
      let name = "\(sender)|\(device.deviceID)"
      if let last = unwedgedAt[name], ContinuousClock.now - last < .seconds(3600) { return }
      unwedgedAt[name] = .now
      try await startNewOlmSession(user: sender, device: device)
      let (messages, reached) = try await olmEncrypt(MatrixDummy(), for: [(user: sender, device: device)])
      guard !reached.isEmpty else { return }
      try await api.sendToDevice(
        type: MatrixEventType.roomEncrypted, transactionID: "awfulbot-dummy-\(UUID().uuidString)",
        messages: messages)
      logger.notice(
        "replaced a wedged Olm session", metadata: ["user": "\(sender)", "device": "\(device.deviceID)"])
    } catch {
      logger.warning(
        "could not replace a wedged Olm session", metadata: ["user": "\(sender)", "error": "\(error)"])
    }
  }
}
