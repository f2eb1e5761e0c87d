import BotStore
import ChatBridge
import Foundation

/// A room's relay settings. Commands change them through `RoomSettingsBook.update(room:_:)`, which stores them and
/// hands back the undo for what changed; a new setting is a property here, a column in `RoomRecord` (with its
/// migration) and its mapping below, and nothing in the book or the undo log.
package struct RoomSettings: Sendable, Hashable, Codable {
  package var mode: RelayMode
  /// Daily quiet hours and/or a one-off "quiet for" (both may be set; either makes the room quiet).
  package var quietHours: QuietHours?
  package var quietUntil: Date?
  /// Whether forum links pasted in the room are expanded (the command router decides what to do with it).
  package var unfurl: Bool
  /// Most posts per thread per cycle relayed one by one; the rest become one summary line.
  package var replayCap: Int
  package var isPaused: Bool
  /// Who may post to the forum by answering relays here.
  package var replies: ReplyPermission
  /// Whether reactions on relays act as commands (🔖 bookmark, 👀 watch, ❌ remove).
  package var reactions: Bool
  /// Whether the room is told in one short line when a relayed post is edited on the forum, where its transport
  /// cannot edit the relay (IRC). Transports that edit follow every edit anyway.
  package var editNotices: Bool
  /// How the room shows the pictures of relayed posts, where its transport can show them (Matrix).
  package var pictures: PictureDisplay

  package init(
    mode: RelayMode = .each, quietHours: QuietHours? = nil, quietUntil: Date? = nil, unfurl: Bool = true,
    replayCap: Int = 20, isPaused: Bool = false, replies: ReplyPermission = .default, reactions: Bool = true,
    editNotices: Bool = false, pictures: PictureDisplay = .inline
  ) {
    self.replies = replies
    self.reactions = reactions
    self.editNotices = editNotices
    self.pictures = pictures
    self.mode = mode
    self.quietHours = quietHours
    self.quietUntil = quietUntil
    self.unfurl = unfurl
    self.replayCap = replayCap
    self.isPaused = isPaused
  }

  /// Sets quiet hours: `.daily` replaces the daily window, `.until` starts a one-off quiet period (the daily window
  /// stays), nil turns both off.
  package mutating func setQuiet(_ quiet: QuietHours?) {
    switch quiet {
    case .daily: quietHours = quiet
    case .until(let date): quietUntil = date
    case nil:
      quietHours = nil
      quietUntil = nil
    }
  }

  /// Refuses settings no room may have, with the sentence a user reads.
  func validate() throws {
    if case .summary(let threshold) = mode, threshold < 1 {
      throw EngineError.invalidArgument("The summary threshold must be at least 1.")
    }
    guard replayCap >= 0 else { throw EngineError.invalidArgument("The replay cap cannot be negative.") }
  }

  /// Whether messages are held right now.
  package func isQuiet(at date: Date, calendar: Calendar) -> Bool {
    if isPaused { return true }
    if let quietUntil, date < quietUntil { return true }
    return quietHours?.isQuiet(at: date, calendar: calendar) ?? false
  }
}

extension RoomSettings {
  /// The settings a stored room row holds; the defaults (with `defaultReplayCap`) for a room never configured.
  init(record: RoomRecord?, defaultReplayCap: Int) {
    guard let record else {
      self.init(replayCap: defaultReplayCap)
      return
    }
    let mode: RelayMode =
      switch record.mode {
      case .summary: .summary(threshold: record.summaryThreshold ?? RelayMode.defaultSummaryThreshold)
      case .digest: .digest(record.digestSchedule.flatMap(DigestSchedule.init(storeValue:)) ?? .hourly)
      case .each: .each
      }
    self.init(
      mode: mode, quietHours: record.quietHours.flatMap(QuietHours.init(parsingDaily:)),
      quietUntil: record.quietUntil, unfurl: record.unfurl, replayCap: record.replayCap, isPaused: record.isPaused,
      replies: record.replyRole.flatMap(ReplyPermission.init(name:)) ?? .default, reactions: record.reactions,
      editNotices: record.editNotices ?? false,
      pictures: record.pictures.flatMap(PictureDisplay.init(rawValue:)) ?? .inline)
  }
}

extension RoomSettings {
  /// Writes these settings into the room's stored row. A summary threshold stays stored when the mode changes, so
  /// going back to summary mode without a number keeps the room's last one.
  func apply(to record: inout RoomRecord) {
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
    if case .daily(let start, let end) = quietHours {
      record.quietHours = "\(start)-\(end)"
    } else {
      record.quietHours = nil
    }
    record.quietUntil = quietUntil
    record.unfurl = unfurl
    record.replayCap = replayCap
    record.isPaused = isPaused
    // A room never set keeps no stored permission, so it reads as the default.
    if record.replyRole != nil || replies != .default { record.replyRole = replies.description }
    record.reactions = reactions
    if record.editNotices != nil || editNotices { record.editNotices = editNotices }
    if record.pictures != nil || pictures != .inline { record.pictures = pictures.rawValue }
  }
}
