import BotStore
import ChatBridge
import Foundation

/// A room's relay settings.
package struct RoomSettings: Sendable, Hashable {
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

  package init(
    mode: RelayMode = .each, quietHours: QuietHours? = nil, quietUntil: Date? = nil, unfurl: Bool = true,
    replayCap: Int = 20, isPaused: Bool = false, replies: ReplyPermission = .default, reactions: Bool = true
  ) {
    self.replies = replies
    self.reactions = reactions
    self.mode = mode
    self.quietHours = quietHours
    self.quietUntil = quietUntil
    self.unfurl = unfurl
    self.replayCap = replayCap
    self.isPaused = isPaused
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
      replies: record.replyRole.flatMap(ReplyPermission.init(name:)) ?? .default, reactions: record.reactions)
  }
}
