import BotStore
import ChatBridge
import Foundation

/// Each room's relay settings: mode, quiet hours, unfurling, replay cap and pause. A change that can end holding
/// (leaving digest mode, quiet over, resume) releases what is due at once.
struct RoomSettingsBook: Sendable {
  let database: BotDatabase
  let configuration: EngineConfiguration
  let transports: [String: ChatCapabilities]
  /// Releases held items after a change.
  let outbox: OutboxWriter
  let now: @Sendable () -> Date

  /// The room's settings (defaults when the room has never been configured).
  func settings(room: RoomRef) async throws -> RoomSettings {
    let cap = configuration.replayCap
    return try await database.read { tx in
      RoomSettings(record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: cap)
    }
  }

  /// Sets how the room receives posts. Returns the previous mode (for undo).
  @discardableResult
  func setMode(room: RoomRef, to mode: RelayMode) async throws -> RelayMode {
    if case .summary(let threshold) = mode, threshold < 1 {
      throw EngineError.invalidArgument("The summary threshold must be at least 1.")
    }
    let cap = configuration.replayCap
    let previous = try await updateRoom(room) { record in Self.apply(mode, to: &record) }
    // Leaving digest mode releases what the digest held.
    try await outbox.releaseHeld()
    return RoomSettings(record: previous, defaultReplayCap: cap).mode
  }

  /// Sets quiet hours: `.daily` replaces the daily window, `.until` starts a one-off quiet period, nil turns both
  /// off. Held messages are released (as one digest) as soon as the room is no longer quiet.
  /// Returns the previous (daily, until) pair, for undo.
  @discardableResult
  func setQuiet(room: RoomRef, to quiet: QuietHours?) async throws -> (daily: QuietHours?, until: Date?) {
    let previous = try await updateRoom(room) { record in
      switch quiet {
      case .daily(let start, let end): record.quietHours = "\(start)-\(end)"
      case .until(let date): record.quietUntil = date
      case nil:
        record.quietHours = nil
        record.quietUntil = nil
      }
    }
    try await outbox.releaseHeld()
    return (previous.quietHours.flatMap(QuietHours.init(parsingDaily:)), previous.quietUntil)
  }

  /// Restores both quiet settings exactly (undo).
  func restoreQuiet(room: RoomRef, daily: QuietHours?, until: Date?) async throws {
    _ = try await updateRoom(room) { record in
      if case .daily(let start, let end) = daily {
        record.quietHours = "\(start)-\(end)"
      } else {
        record.quietHours = nil
      }
      record.quietUntil = until
    }
    try await outbox.releaseHeld()
  }

  /// Turns link unfurling on or off for the room. Returns the previous value.
  @discardableResult
  func setUnfurl(room: RoomRef, to enabled: Bool) async throws -> Bool {
    try await updateRoom(room) { $0.unfurl = enabled }.unfurl
  }

  /// Sets who may post to the forum from the room by answering relays. Returns the previous setting.
  @discardableResult
  func setReplies(room: RoomRef, to permission: ReplyPermission) async throws -> ReplyPermission {
    let previous = try await updateRoom(room) { $0.replyRole = permission.description }
    return previous.replyRole.flatMap(ReplyPermission.init(name:)) ?? .default
  }

  /// Turns reactions as commands on or off in the room. Returns the previous setting.
  @discardableResult
  func setReactions(room: RoomRef, to enabled: Bool) async throws -> Bool {
    try await updateRoom(room) { $0.reactions = enabled }.reactions
  }

  /// Sets how many posts of one thread the room gets one by one per cycle before a summary line.
  @discardableResult
  func setReplayCap(room: RoomRef, to cap: Int) async throws -> Int {
    guard cap >= 0 else { throw EngineError.invalidArgument("The replay cap cannot be negative.") }
    return try await updateRoom(room) { $0.replayCap = cap }.replayCap
  }

  /// Pauses or resumes the room: a paused room holds everything, released as a digest on resume.
  @discardableResult
  func setPaused(room: RoomRef, to paused: Bool) async throws -> Bool {
    let previous = try await updateRoom(room) { $0.isPaused = paused }.isPaused
    try await outbox.releaseHeld()
    return previous
  }

  /// Applies a change to the room row (created with defaults when new) and returns the row as it was before.
  private func updateRoom(_ room: RoomRef, _ change: @escaping @Sendable (inout RoomRecord) -> Void) async throws
    -> RoomRecord
  {
    _ = try room.capabilities(in: transports)
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

  private static func apply(_ mode: RelayMode, to record: inout RoomRecord) {
    switch mode {
    case .each:
      record.mode = .each
    case .summary(let threshold):
      record.mode = .summary
      record.summaryThreshold = threshold
    case .digest(let schedule):
      record.mode = .digest
      record.digestSchedule = schedule.storeValue
    }
  }
}
