import Foundation
import GRDB

/// A chat room the bot relays into, with its settings (kept as plain columns; the engine gives them meaning).
package struct RoomRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "room"

  package var transport: String
  package var room: String
  package var mode: RoomModeKind
  /// `summary` mode: more than this many new posts in one thread in one cycle become one message.
  package var summaryThreshold: Int?
  /// `digest` mode: `hourly` or `daily@HH:MM`.
  package var digestSchedule: String?
  package var lastDigestAt: Date?
  /// Daily quiet hours as `HH:MM-HH:MM` in the configured time zone.
  package var quietHours: String?
  /// Quiet until this moment (`quiet for 2h`).
  package var quietUntil: Date?
  package var unfurl: Bool
  /// Most posts of one thread relayed one by one per cycle; the rest become one summary line.
  package var replayCap: Int
  package var isPaused: Bool
  package var createdAt: Date
  /// Who may post to the forum from the room by answering relays: `viewer`, `member`, `admin` or `off`; nil is the
  /// default (admin).
  package var replyRole: String?
  /// Whether reactions on relays act as commands (🔖 bookmark, 👀 watch, ❌ remove).
  package var reactions: Bool
  /// Whether the room is told in one line when a relayed post is edited, where its transport cannot edit; nil is the
  /// default (off).
  package var editNotices: Bool?
  /// How the room shows the pictures of relayed posts: `inline` or `links`; nil is the default (inline).
  package var pictures: String?

  package init(
    transport: String, room: String, mode: RoomModeKind = .each, summaryThreshold: Int? = nil,
    digestSchedule: String? = nil, lastDigestAt: Date? = nil, quietHours: String? = nil, quietUntil: Date? = nil,
    unfurl: Bool = true, replayCap: Int = 20, isPaused: Bool = false, createdAt: Date, replyRole: String? = nil,
    reactions: Bool = true, editNotices: Bool? = nil, pictures: String? = nil
  ) {
    self.replyRole = replyRole
    self.reactions = reactions
    self.editNotices = editNotices
    self.pictures = pictures
    self.transport = transport
    self.room = room
    self.mode = mode
    self.summaryThreshold = summaryThreshold
    self.digestSchedule = digestSchedule
    self.lastDigestAt = lastDigestAt
    self.quietHours = quietHours
    self.quietUntil = quietUntil
    self.unfurl = unfurl
    self.replayCap = replayCap
    self.isPaused = isPaused
    self.createdAt = createdAt
  }
}
