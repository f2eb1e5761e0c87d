import MatrixCrypto
import MatrixModel

extension MatrixTransport {
  /// What the transport keeps while it runs, held under one lock (`MatrixTransport.state`) and kept by concern: each
  /// part is a value of its own, and what belongs to one sign-in is made new at each (`SignIn`).
  struct State {
    var status: MatrixTransportStatus = .starting
    var signIn = SignIn()
    var rooms = Rooms()
    var sending = Sending()

    /// One sign-in: made new when the bot signs in (see `start`), so nothing of an earlier one lingers.
    struct SignIn {
      var ownUserID: String?
      /// After a restore, the start (milliseconds since 1970, the homeserver's clock as events carry it): messages
      /// sent before it are never read (see `withoutEventsBeforeRestore`).
      var eventsFrom: Int64?
      /// End-to-end encryption, once signed in with a pickle key configured; nil otherwise.
      var crypto: (any MatrixEncryption)?
      /// Start-up is done: encryption is set up and the encrypted rooms are loaded. Sends wait for it, so none goes
      /// out in the moments after sign-in while the bot does not yet know which rooms are encrypted.
      var readyToSend = false
    }

    /// What the bot knows of its rooms, from the syncs and what it asked.
    struct Rooms {
      var directory = MatrixRoomDirectory()
      /// Rooms (resolved ids) whose relays of one forum thread go in one Matrix thread (`threadRooms`).
      var threadRooms: Set<String> = []
      /// Rooms whose `m.room.encryption` state was asked for directly because no sync had shown them yet.
      var encryptionLookedUp: Set<String> = []
      /// Rooms a reload added to `rooms`: joined at once when signed in, and at sign-in when the reload came first.
      var roomsAddedLive: [String] = []
      /// Encrypted messages waiting for their session key.
      var undecrypted = MatrixUndecryptedEvents()
    }

    /// The bookkeeping of what the bot sends.
    struct Sending {
      /// When the homeserver last accepted an event from the bot (the sync loop slows down while the bot sends).
      var lastSentAt: ContinuousClock.Instant?
      /// Messages rendered ahead of their send, by idempotency key (see `prepare`).
      var prepared: [String: MatrixPreparedSend] = [:]
      var rateLimitWaits = 0
      /// When each picture download of the last hour started (`MatrixImageSettings.perHour`).
      var imageDownloads: [ContinuousClock.Instant] = []
      /// The last pictures downloaded, for the other kind of room (`MatrixRecentDownloads`).
      var recentDownloads = MatrixRecentDownloads()
      /// The pictures left waiting at the last stop were handed to the follow-ups (`resumePendingPictures`).
      var picturesResumed = false
    }
  }
}
