import Foundation

/// A paging session a room can go on with (`search more`, `lepers more`) until it expires.
package protocol ExpiringSession: Sendable {
  var expires: Date { get }
}

/// Each room's current paging session, for the command books that let `more` go on where the last answer stopped.
/// A session past its time is as good as none; stale rooms are dropped once there are many, so a bot in thousands of
/// rooms keeps only the live ones.
struct RoomPagingSessions<Session: ExpiringSession>: Sendable {
  private var sessions: [RoomRef: Session] = [:]
  private let maximumEntries = 10_000

  func session(room: RoomRef, now: Date) -> Session? {
    guard let session = sessions[room], session.expires > now else { return nil }
    return session
  }

  mutating func store(_ session: Session, room: RoomRef, now: Date) {
    sessions[room] = session
    if sessions.count > maximumEntries { sessions = sessions.filter { $0.value.expires > now } }
  }

  mutating func forget(room: RoomRef) {
    sessions[room] = nil
  }
}
