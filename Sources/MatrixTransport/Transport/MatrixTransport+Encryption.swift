import ChatBridge

extension MatrixTransport {
  /// Joined rooms that are end-to-end encrypted (commands there cannot be read), kept across restarts; for `status`
  /// and readiness.
  package var encryptedRooms: Set<String> { state.withLock { $0.directory.encrypted } }

  /// Posts the encryption notice in each room that has not had it yet, and remembers that it did. A failed send is
  /// logged and tried again the next time the room shows encryption (an encrypted event from someone).
  func sendEncryptionNotices(to rooms: [String]) async throws {
    for room in rooms {
      let key = MatrixStateKey.encryptionNotice(room: room)
      guard try await store.value(for: key) == nil else { continue }
      logger.warning("room is end-to-end encrypted; commands there cannot be read", metadata: ["room": "\(room)"])
      do {
        let eventID = try await sendEvent(
          room: room, content: MatrixEncryptionNotice.content,
          transactionID: MatrixEncryptionNotice.transactionID(room: room))
        try await store.setValue(eventID, for: key)
      } catch let error as ChatSendError {
        logger.warning(
          "could not post the encryption notice", metadata: ["room": "\(room)", "error": "\(error)"])
      }
    }
  }

  func loadEncryptedRooms() async {
    let stored = (try? await store.value(for: MatrixStateKey.encryptedRooms)) ?? nil
    let rooms = Set((stored ?? "").split(separator: "\n").map(String.init))
    state.withLock { $0.directory.encrypted.formUnion(rooms) }
  }

  func saveEncryptedRooms() async {
    let rooms = state.withLock { $0.directory.encrypted }.sorted().joined(separator: "\n")
    do {
      try await store.setValue(rooms.isEmpty ? nil : rooms, for: MatrixStateKey.encryptedRooms)
    } catch {
      logger.warning("could not store encrypted rooms", metadata: ["error": "\(error)"])
    }
  }
}
