import ChatBridge
import Foundation
import Logging
import MatrixModel

/// Configured room aliases held to the room each first named. An alias is a pointer that whoever holds it (or the
/// alias's homeserver) may move at any time, while a room the config names gets the config's scope (in
/// `privateMessages.rooms`: the account's inbox, `pms`, `pmreply`, `reply`). So an alias is resolved for real once,
/// and that answer is stored (the pin); every later answer is only compared with it:
/// - an answer naming another room is refused: the pinned room stays the configured one, and a warning names both
///   (the operator confirms a move by writing the room id in the config in place of the alias);
/// - no pin is made to a room the bot entered on an invite from someone `allowedInviters` does not name by user id:
///   a stranger on an allowed server could have made that room and pointed the alias at it;
/// - an alias the homeserver said did not exist when the bot first looked it up is pinned later only to a room the
///   bot entered on an invite from someone `allowedInviters` names by user id: anyone may create an alias nobody
///   holds, and then invite the bot.
///
/// Kept in the transport's state store (keys below), so restarts and reloads see the same pins. An actor: two
/// first resolutions of one alias (the app's seeding and the transport's start) cannot both pin.
actor MatrixAliasPins {
  /// What the homeserver said an alias names.
  enum Answer: Sendable, Equatable {
    case room(String)
    /// `M_NOT_FOUND`: nobody holds the alias.
    case missing
    /// Any other failure (the homeserver down or slow): nothing was learnt.
    case unknown(String)
  }

  /// What an answer comes to, given what is stored.
  enum Verdict: Sendable, Hashable {
    /// The pinned room; the alias still names it.
    case pinned(String)
    /// The pinned room; the alias names no room now.
    case pinnedAliasGone(String)
    /// The pinned room; the homeserver could not be asked.
    case pinnedUnasked(String)
    /// The pinned room; the alias now names another room, which is refused.
    case moved(pinned: String, answered: String)
    /// No pin yet: this answer becomes the pin.
    case adopt(String)
    /// No pin yet, and none is made: the bot entered the room on an invite from someone not named by user id.
    case invitedByStranger(room: String, inviter: String)
    /// No pin yet, and none is made: the alias did not exist when the bot first looked it up.
    case appearedLater(room: String, missingSince: String)
    /// No pin, and the alias names no room.
    case missing
    /// No pin, and the homeserver could not be asked.
    case unknown(String)

    /// The room the alias stands for in the bot, if any.
    var room: String? {
      switch self {
      case .pinned(let room), .pinnedAliasGone(let room), .pinnedUnasked(let room), .adopt(let room): room
      case .moved(let pinned, _): pinned
      case .invitedByStranger, .appearedLater, .missing, .unknown: nil
      }
    }
  }

  // The keys live here rather than in `MatrixStateKey`: they are read by `check` as well (`MatrixAliasCheck`).
  /// The room id an alias was pinned to.
  static func pinKey(_ alias: String) -> String { "alias-pin:\(alias)" }
  /// When the homeserver first said the alias names no room (while it had no pin).
  static func missingKey(_ alias: String) -> String { "alias-missing:\(alias)" }
  /// Who invited the bot into a room it joined on an invite (the first invite only).
  static func inviterKey(room: String) -> String { "invited-by:\(room)" }

  let store: any TransportStateStore
  let logger: Logger
  /// The refusals already warned about in this process: the same alias is resolved several times a start (once per
  /// config entry naming it, and to join it), and again at each retry; the warning is said once, the rest at debug.
  private var warned: Set<Verdict> = []
  /// Whether a resolution is deciding (between reading the pin and writing it), and who waits for that. The lookup
  /// itself runs outside: an actor is reentrant at every `await`, and two first answers must not both be pinned.
  private var deciding = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(store: any TransportStateStore, logger: Logger) {
    self.store = store
    self.logger = logger
  }

  /// The rules, on what the store holds for the alias (`pin`, `missingSince`) and who invited the bot into the room
  /// the answer names (`inviter`, nil when it did not join on an invite); `names` says whether `allowedInviters`
  /// names a user by id.
  static func decide(
    pin: String?, answer: Answer, missingSince: String?, inviter: String?, names: (String) -> Bool
  ) -> Verdict {
    if let pin {
      switch answer {
      case .room(let room) where room != pin: return .moved(pinned: pin, answered: room)
      case .room: return .pinned(pin)
      case .missing: return .pinnedAliasGone(pin)
      case .unknown: return .pinnedUnasked(pin)
      }
    }
    switch answer {
    case .missing: return .missing
    case .unknown(let reason): return .unknown(reason)
    case .room(let room):
      if let inviter, !names(inviter) { return .invitedByStranger(room: room, inviter: inviter) }
      if let missingSince, inviter == nil { return .appearedLater(room: room, missingSince: missingSince) }
      return .adopt(room)
    }
  }

  /// `decide` on what `store` holds (read only: `check` uses it on the database of a bot that may be running).
  static func verdict(
    alias: String, answer: Answer, store: any TransportStateStore, names: @Sendable (String) -> Bool
  ) async throws -> Verdict {
    let pin = try await store.value(for: pinKey(alias))
    let missingSince = try await store.value(for: missingKey(alias))
    var inviter: String?
    if case .room(let room) = answer { inviter = try await store.value(for: inviterKey(room: room)) }
    return decide(pin: pin, answer: answer, missingSince: missingSince, inviter: inviter, names: names)
  }

  /// Asks `lookup` (told whether a pin exists, so it may give up sooner) and maps its failure.
  static func ask(_ lookup: @Sendable (Bool) async throws -> String, pinned: Bool) async -> (Answer, (any Error)?) {
    do {
      return (.room(try await lookup(pinned)), nil)
    } catch MatrixClientError.api(let error) where error.errcode == "M_NOT_FOUND" {
      return (.missing, error)
    } catch {
      return (.unknown("\(error)"), error)
    }
  }

  /// The room id `alias` stands for in the bot, pinning it at the first real answer. Throws `MatrixAliasRefusal`
  /// when the alias names no room the bot takes, or the lookup's own error when there is no pin and no answer.
  func resolve(
    _ alias: String, names: @Sendable (String) -> Bool, lookup: @Sendable (_ pinned: Bool) async throws -> String
  ) async throws -> String {
    let pinned = try await store.value(for: Self.pinKey(alias)) != nil
    let (answer, failure) = await Self.ask(lookup, pinned: pinned)
    if deciding {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      deciding = true
    }
    defer {
      if waiting.isEmpty { deciding = false } else { waiting.removeFirst().resume() }
    }
    let verdict = try await Self.verdict(alias: alias, answer: answer, store: store, names: names)
    var logger = logger
    logger[metadataKey: "alias"] = "\(alias)"
    let warning: Logger.Level = warned.contains(verdict) ? .debug : .warning
    switch verdict {
    case .pinned(let room), .pinnedUnasked(let room):
      return room
    case .pinnedAliasGone(let room):
      warned.insert(verdict)
      logger.log(
        level: warning,
        "configured room alias names no room now; the bot keeps the room it named first",
        metadata: ["pinnedRoom": "\(room)", "fix": "write \(room) in the config in place of \(alias)"])
      return room
    case .moved(let pinned, let answered):
      warned.insert(verdict)
      logger.log(
        level: warning,
        "configured room alias now names another room; refused, the bot keeps the room it named first",
        metadata: [
          "pinnedRoom": "\(pinned)", "answeredRoom": "\(answered)",
          "fix": "write \(pinned) in the config in place of \(alias) (or \(answered), if the room moved on purpose)",
        ])
      return pinned
    case .adopt(let room):
      try await store.setValues([Self.pinKey(alias): room, Self.missingKey(alias): nil])
      logger.notice("configured room alias pinned to the room it names", metadata: ["room": "\(room)"])
      return room
    case .invitedByStranger(let room, let inviter):
      let refusal = MatrixAliasRefusal.invitedByStranger(alias: alias, room: room, inviter: inviter)
      warned.insert(verdict)
      logger.log(
        level: warning,
        "configured room alias names a room the bot joined on a stranger's invite; not taken",
        metadata: ["room": "\(room)", "inviter": "\(inviter)", "reason": "\(refusal)"])
      throw refusal
    case .appearedLater(let room, let since):
      let refusal = MatrixAliasRefusal.appearedLater(alias: alias, room: room, missingSince: since)
      warned.insert(verdict)
      logger.log(
        level: warning,
        "configured room alias appeared after the bot first looked it up; not taken",
        metadata: ["room": "\(room)", "missingSince": "\(since)", "reason": "\(refusal)"])
      throw refusal
    case .missing:
      if try await store.value(for: Self.missingKey(alias)) == nil {
        try await store.setValue(Date().formatted(.iso8601), for: Self.missingKey(alias))
      }
      throw MatrixAliasRefusal.missing(alias: alias)
    case .unknown(let reason):
      throw failure ?? MatrixClientError.network(reason)
    }
  }

  /// Remembers who invited the bot into `room`, when it joins on an invite (the first invite only: a later one
  /// does not make a stranger's room anyone else's).
  func recordInvite(room: String, inviter: String) async {
    do {
      if try await store.value(for: Self.inviterKey(room: room)) == nil {
        try await store.setValue(inviter, for: Self.inviterKey(room: room))
      }
    } catch {
      logger.warning(
        "could not store who invited the bot into a room", metadata: ["room": "\(room)", "error": "\(error)"])
    }
  }
}

extension MatrixTransportConfiguration {
  /// Whether `allowedInviters` names `userID` itself (not only its server, nor `*`): the operator vouched for them.
  func namesInviter(_ userID: String) -> Bool {
    allowedInviters.contains { $0.hasPrefix("@") && $0 == userID }
  }
}
