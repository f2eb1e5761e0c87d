import ChatBridge
import Foundation

/// Each room's last rap sheet (`lepers <user>`), so `lepers more` shows its next entries. Nothing of the sheet is
/// kept but whose it is and where the room stopped: `more` reads the forum again (charged to the command budget),
/// so it shows the sheet as it is then.
package actor RapSheetBook {
  package struct Session: ExpiringSession, Hashable {
    /// The user as the asker named them (a name or an id), what the forum is asked again.
    package var user: String
    /// The chat page `more` shows next.
    package var nextPage: Int
    package var expires: Date
    /// The whole sheet was shown (how many entries it had): `more` says so without asking the forum.
    package var shownWhole: Int? = nil
  }

  /// How long `more` can page through a rap sheet.
  package static let sessionLifetime: TimeInterval = 30 * 60
  private var sessions = RoomPagingSessions<Session>()

  package init() {}

  package func session(room: RoomRef, now: Date) -> Session? { sessions.session(room: room, now: now) }

  package func store(_ session: Session, room: RoomRef, now: Date) { sessions.store(session, room: room, now: now) }

  package func forget(room: RoomRef) { sessions.forget(room: room) }
}
