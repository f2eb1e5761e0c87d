import BotStore
import ChatBridge
import Foundation

extension BotEngine {
  /// The room's settings (defaults when the room has never been configured).
  package func settings(room: RoomRef) async throws -> RoomSettings {
    let cap = configuration.replayCap
    return try await database.read { tx in
      BotEngine.settings(from: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: cap)
    }
  }

  /// Sets how the room receives posts. Returns the previous mode (for undo).
  @discardableResult
  package func setMode(room: RoomRef, to mode: RelayMode) async throws -> RelayMode {
    if case .summary(let threshold) = mode, threshold < 1 {
      throw EngineError.invalidArgument("The summary threshold must be at least 1.")
    }
    let cap = configuration.replayCap
    let previous = try await updateRoom(room) { record in BotEngine.apply(mode, to: &record) }
    // Leaving digest mode releases what the digest held.
    try await releaseHeld()
    return BotEngine.settings(from: previous, defaultReplayCap: cap).mode
  }

  /// Sets quiet hours: `.daily` replaces the daily window, `.until` starts a one-off quiet period, nil turns both
  /// off. Held messages are released (as one digest) as soon as the room is no longer quiet.
  /// Returns the previous (daily, until) pair, for undo.
  @discardableResult
  package func setQuiet(room: RoomRef, to quiet: QuietHours?) async throws -> (daily: QuietHours?, until: Date?) {
    let previous = try await updateRoom(room) { record in
      switch quiet {
      case .daily(let start, let end): record.quietHours = "\(start)-\(end)"
      case .until(let date): record.quietUntil = date
      case nil:
        record.quietHours = nil
        record.quietUntil = nil
      }
    }
    try await releaseHeld()
    return (previous.quietHours.flatMap(QuietHours.init(parsingDaily:)), previous.quietUntil)
  }

  /// Restores both quiet settings exactly (undo).
  package func restoreQuiet(room: RoomRef, daily: QuietHours?, until: Date?) async throws {
    _ = try await updateRoom(room) { record in
      if case .daily(let start, let end) = daily {
        record.quietHours = "\(start)-\(end)"
      } else {
        record.quietHours = nil
      }
      record.quietUntil = until
    }
    try await releaseHeld()
  }

  /// Turns link unfurling on or off for the room. Returns the previous value.
  @discardableResult
  package func setUnfurl(room: RoomRef, to enabled: Bool) async throws -> Bool {
    try await updateRoom(room) { $0.unfurl = enabled }.unfurl
  }

  /// Sets how many posts of one thread the room gets one by one per cycle before a summary line.
  @discardableResult
  package func setReplayCap(room: RoomRef, to cap: Int) async throws -> Int {
    guard cap >= 0 else { throw EngineError.invalidArgument("The replay cap cannot be negative.") }
    return try await updateRoom(room) { $0.replayCap = cap }.replayCap
  }

  /// Pauses or resumes the room: a paused room holds everything, released as a digest on resume.
  @discardableResult
  package func setPaused(room: RoomRef, to paused: Bool) async throws -> Bool {
    let previous = try await updateRoom(room) { $0.isPaused = paused }.isPaused
    try await releaseHeld()
    return previous
  }

  /// Registers a forum username for quote and mention alerts in the room. Returns false when already registered.
  @discardableResult
  package func addAlert(room: RoomRef, username: String, createdBy: String? = nil) async throws -> Bool {
    _ = try capabilities(of: room)
    let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw EngineError.invalidArgument("Give a forum username.") }
    let now = now()
    let cap = configuration.replayCap
    return try await database.write { tx in
      _ = try tx.ensureRoom(transport: room.transport, room: room.room, now: now, replayCap: cap)
      return try tx.insertAlert(
        AlertRecord(transport: room.transport, room: room.room, username: name, createdAt: now, createdBy: createdBy))
    }
  }

  /// Removes an alert registration. Returns false when there was none.
  @discardableResult
  package func removeAlert(room: RoomRef, username: String) async throws -> Bool {
    let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await database.write { tx in
      try tx.deleteAlert(transport: room.transport, room: room.room, username: name)
    }
  }

  /// Usernames the room gets alerts for, alphabetically.
  package func alerts(room: RoomRef) async throws -> [String] {
    try await database.read { tx in
      try tx.alerts(transport: room.transport, room: room.room).map(\.username)
    }
  }

  /// Applies a change to the room row (created with defaults when new) and returns the row as it was before.
  private func updateRoom(_ room: RoomRef, _ change: @escaping @Sendable (inout RoomRecord) -> Void) async throws
    -> RoomRecord
  {
    _ = try capabilities(of: room)
    let now = now()
    let cap = configuration.replayCap
    return try await database.write { tx in
      let previous = try tx.ensureRoom(transport: room.transport, room: room.room, now: now, replayCap: cap)
      var updated = previous
      change(&updated)
      try tx.save(updated)
      return previous
    }
  }
}
