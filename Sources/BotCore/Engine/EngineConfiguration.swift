import ChatBridge
import Foundation

/// Tunables of the poller, relay and dispatchers. Defaults follow the design; tests shorten them.
package struct EngineConfiguration: Sendable {
  /// The longest wait between two bookmarks checks (`polling.bookmarksSeconds`): the schedule backs off to it while
  /// nothing moves.
  package var bookmarksInterval: Duration = .seconds(60)
  /// Whether the process before this one crashed (a trap, an abort, a bad access: `awfulbot run` keeps a witness of
  /// it, see the app's `CrashWitness`). Only then do the outbox rows it had in flight count a death towards parking
  /// (see `CrashGuard`); a process stopped from outside (SIGKILL, the OOM killer, a power cut) leaves its rows to be
  /// sent again as they are. True unless told otherwise: without a witness, every death counts.
  package var previousRunCrashed = true
  /// The shortest wait (`polling.bookmarksMinimumSeconds`): the next check after one that found a thread moved. A
  /// check usually costs one request (page 1 of the newest-first list), so checking often while threads are active
  /// costs less than one full read of a large account a minute.
  package var bookmarksMinimumInterval: Duration = .seconds(10)
  /// How often the whole bookmarks list is read (`polling.bookmarksFullSweepSeconds`), which is what notices a
  /// bookmark added or removed on the web, a thread moved or a deleted post: a check from the top of the list only
  /// sees threads that got a post. Zero reads the whole list every cycle (the schedule before issue 28).
  package var bookmarksFullSweepInterval: Duration = .seconds(60 * 60)
  package var announcementsInterval: Duration = .seconds(30 * 60)
  /// The longest wait between two reads of a watched forum (`polling.forumsSeconds`).
  package var forumsInterval: Duration = .seconds(5 * 60)
  /// The shortest (`polling.forumsMinimumSeconds`): the next read after one that found a new thread.
  package var forumsMinimumInterval: Duration = .seconds(60)
  /// The forum prints last-post times to the minute, and its servers' clocks need not agree to the second: a check
  /// reads on until it meets a settled thread older than the last check's newest last post by more than this.
  package var listOrderMargin: Duration = .seconds(60)
  /// Politeness bound on pages of a watched forum read in one poll. New threads pushed further down than this by
  /// threads bumped since the last read are not told (as when only page 1 was read); the log says so.
  package var maximumForumPages: Int = 5
  /// How often the inbox is read while some room is configured for private messages (one request when nothing is
  /// new).
  package var privateMessagesInterval: Duration = .seconds(5 * 60)
  /// The rooms told about each new private message (`privateMessages.rooms`); none: the inbox is never polled.
  /// The application adds configured ones as their ids are known (`PrivateMessageRooms.add`).
  package var privateMessageRooms: [RoomRef] = []
  /// Whether a private-message alert quotes the start of the message. Off by default: the rooms see who wrote and
  /// about what, and the text stays on the forum. On, each new message costs a second request and the forum marks
  /// it read.
  package var privateMessageExcerpt: Bool = false
  /// How often the Leper's Colony is read while some room follows it (`polling.lepersSeconds`).
  package var lepersInterval: Duration = .seconds(5 * 60)
  /// Politeness bound on pages of the Leper's Colony read in one poll after downtime, until it reaches entries
  /// already seen. Older entries past it are not told; the log says so.
  package var maximumLepersPages: Int = 5
  /// How many of the newest Leper's Colony entries the engine always remembers; older ones are forgotten once a read
  /// shows they can no longer be reached (`LepersPoll`). Far more than the pages one read may take.
  package var lepersEntriesKept: Int = 1_000
  /// Each wait is stretched or shrunk by up to this fraction, so polls do not land on the same second.
  package var jitter: Double = 0.1
  /// First delay after a failed poll; doubles per consecutive failure up to `maximumPollBackoff`.
  package var pollBackoffBase: Duration = .seconds(30)
  package var maximumPollBackoff: Duration = .seconds(30 * 60)
  /// Default replay cap per thread per cycle for new rooms.
  package var replayCap: Int = 20
  /// A room with this many messages still waiting, the oldest of them for longer than `backlogAge`, gets new posts as
  /// summaries until it catches up, instead of minutes of lag behind a slow chat service (an IRC network's flood
  /// limit); `status` says so. Both conditions: a burst that a fast service drains in seconds (a restart with rows
  /// waiting) is not lag.
  package var backlogLimit: Int = 30
  package var backlogAge: Duration = .seconds(120)
  /// A step of the bookmarks' full sweep starts only when no poll falls due within this: the forum client's request
  /// spacing (`forum.requestSpacingSeconds`), so a check never waits for a sweep request, only, at most, for the
  /// spacing after one.
  package var sweepStepLead: Duration = .seconds(1)
  /// Safety bound on bookmarks pages followed in one poll (a first poll, a list out of order). A first poll that
  /// meets it leaves the rest of the list to the full sweep, read a page at a time.
  package var maximumBookmarkPages: Int = 200
  /// Safety bound on the pages of one full sweep read a page at a time (400,000 bookmarks), against a forum that
  /// would say there are always more.
  package var maximumSweepPages: Int = 10_000
  /// Retryable send failures before a row is dead-lettered.
  package var maximumDeliveryAttempts: Int = 8
  package var deliveryBackoffBase: Duration = .seconds(2)
  package var maximumDeliveryBackoff: Duration = .seconds(10 * 60)
  /// In summary mode on transports with edits, a new summary of the thread whose summary is the room's last
  /// message edits that message (with the running count) while the burst's first message is younger than this.
  /// Edits do not notify anyone, so after half an hour a busy thread gets a fresh message people see again.
  package var summaryEditWindow: Duration = .seconds(30 * 60)
  /// How often held items (quiet hours, digests) are checked for release when nothing else happens.
  package var releaseCheckInterval: Duration = .seconds(60)
  /// How long `undo` can reach back.
  package var undoWindow: Duration = .seconds(10 * 60)
  /// Most forums one room may follow by command (`commands.forumsPerRoom`; 0: no cap). Each forum followed is read
  /// on its own, up to once a minute and five pages a read while it is busy, all from the account's one request a
  /// second: ten busy forums already cost most of that pace. The config's own `rooms[].subscriptions` are not held
  /// to it (the operator chose them).
  package var maximumForumsPerRoom: Int = 10
  /// Most threads one room may watch by command (`commands.watchedThreadsPerRoom`; 0: no cap). A watched thread is a
  /// bookmark, read with the others from the newest-first bookmarks list, so it costs little while quiet; fifty is
  /// more than a room can follow in chat, and bounds the bookmarks (and the full sweep) one room can add.
  package var maximumWatchedThreadsPerRoom: Int = 50
  /// Time zone of quiet hours, digest times and dates in messages.
  package var timeZone: TimeZone = .gmt
  /// Characters of a post body shown in chat before it is cut with a link.
  package var excerptLength: Int = 400

  /// Called after each bookmarks page is read (page number, page count when the forum shows it, whether it was the
  /// last page), so a terminal can show progress through a long first fetch.
  package var bookmarksPageRead: (@Sendable (_ page: Int, _ total: Int?, _ isLast: Bool) -> Void)?
  /// Called as the poller starts a poll, with how long after its due time it starts (the latency bench measures
  /// that no check waits for a sweep).
  package var pollStarted: (@Sendable (_ source: PollSource, _ late: TimeInterval) -> Void)?

  package init() {}

  var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }
}
