/// Errors of the engine API, with messages fit to show in chat.
package enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  case unknownTransport(String)
  case invalidArgument(String)
  case notSubscribed(String)
  /// The forum connection in use offers no private messages.
  case privateMessagesUnavailable
  /// The forum connection reads no Leper's Colony (a test stand-in that does not model one).
  case lepersColonyUnavailable
  /// The forum connection offers no search (a test stand-in that does not model one).
  case searchUnavailable
  /// Watching the thread would bookmark it on the forum account, which the asker may not do (`CommandScope.account`).
  case bookmarkNeeded(threadID: String)
  /// The room follows as many forums (or watches as many threads) as it may (`EngineConfiguration`'s caps per room).
  case roomCapReached(RoomCap, count: Int, maximum: Int)

  /// What a room may follow only so many of.
  package enum RoomCap: Sendable, Hashable {
    case forums
    case watchedThreads
  }

  package var description: String {
    switch self {
    case .unknownTransport(let name): "No transport named \(name) is configured."
    case .invalidArgument(let message): message
    case .notSubscribed(let what): "This room is not subscribed to \(what)."
    case .privateMessagesUnavailable: "This forum connection offers no private messages."
    case .lepersColonyUnavailable: "This forum connection offers no Leper's Colony."
    case .searchUnavailable: "This forum connection offers no search."
    case .bookmarkNeeded(let threadID):
      "Thread \(threadID) is not bookmarked on the bot's forum account, and watching it would bookmark it, which "
        + "needs the member role from the bot's operator (roles in its config, or room power in a room its config "
        + "names); once someone with it bookmarks the thread, it can be watched here."
    case .roomCapReached(let cap, let count, let maximum):
      Self.capRefusal(cap, count: count, maximum: maximum)
    }
  }

  private static func capRefusal(_ cap: RoomCap, count: Int, maximum: Int) -> String {
    let (follows, things, remove) =
      switch cap {
      case .forums: ("follows", "forums", "unsubscribe one")
      case .watchedThreads: ("watches", "threads", "unwatch one")
      }
    // A cap lowered in the config can leave a room above it.
    let bound = count > maximum ? ", more than the \(maximum) it may" : ", the most it may"
    return "This room already \(follows) \(count) \(things)\(bound); \(remove) first."
  }
}
