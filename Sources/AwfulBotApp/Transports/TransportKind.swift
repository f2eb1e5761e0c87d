import BotCore
import BotStore
import ChatBridge
import Foundation
import Logging

/// A type of chat connection the config can name (`console`, `matrix`, `irc`): the keys it takes, how they are
/// checked, and how the transport is built and probed. Adding a transport type is adding one `TransportKind` to
/// `TransportKind.all`; loading, `check`, `setup` and the transport factory all go through this list.
package struct TransportKind: Sendable {
  /// The shape a key must have; `custom` keys are checked by `check` alone.
  package enum OptionType: Sendable {
    case string, secret, bool, number, integer, strings, custom
  }

  package var type: TransportType
  /// One line for `setup` and error messages.
  package var summary: String
  package var options: [String: OptionType]
  package var requiredOptions: [String]
  /// Keys (dotted for nested ones) holding secrets: they may be `{"env": "NAME"}`, and when absent are taken
  /// from `AWFULBOT_<NAME>_<KEY>`.
  package var secretKeys: [String]
  /// Checks beyond the shape, on options whose secrets are resolved; reports under `path`.
  package var check: @Sendable (_ options: [String: JSONValue], _ path: String, _ reader: inout ConfigReader) -> Void
  /// Rewrites the config's keys into the keys the transport module's configuration type decodes.
  package var prepare: @Sendable ([String: JSONValue]) -> [String: JSONValue]
  /// What the transport's own settings say about who may act (`check`'s permission table), read by the transport's
  /// own decoding without secrets: the table is drawn where the environment that holds them may not be.
  package var roleSettings: @Sendable (TransportSettings) throws -> TransportRoleSettings
  /// Builds the transport.
  package var make: @Sendable (TransportSettings, TransportBuildContext) throws -> any ChatTransport
  /// Reaches the service the way `check` should (Matrix `whoami`, IRC connect-register-quit).
  package var probe: @Sendable (TransportSettings, TransportBuildContext) async -> CheckResult
  /// `check`'s lines about the state the transport keeps in the bot's data directory and database (`stored`, nil
  /// before the first run): Matrix's encryption keys and published identity.
  package var checkState:
    @Sendable (TransportSettings, _ stored: (any TransportStateStore)?, TransportBuildContext) async -> [CheckResult]
  /// Who is in a room, for `check`'s privacy warning about private-message rooms: the members' user names (the
  /// bot's own account included or not), nil when the service cannot tell without joining (IRC) or the
  /// configuration gives no way to ask (a Matrix account with a password only). Throws when asking failed. Given the
  /// transport's saved state (nil before the first run): a Matrix alias is the room it is pinned to.
  package var roomMembers: RoomMembers?
  /// A transport's `roomMembers`.
  package typealias RoomMembers =
    @Sendable (TransportSettings, _ room: String, _ stored: (any TransportStateStore)?, TransportBuildContext)
    async throws -> [String]?
  /// `check`'s lines about the rooms the config names on this transport, as written, each with whether it is a
  /// private-message room (`privateMessages.rooms`), read with the transport's saved state (`stored`, nil before the
  /// first run): Matrix says what each alias stands for (`MatrixAliasCheck`).
  package var checkRooms: RoomsCheck?
  /// A transport's `checkRooms`.
  package typealias RoomsCheck =
    @Sendable (TransportSettings, _ rooms: [String: Bool], _ stored: (any TransportStateStore)?, TransportBuildContext)
    async -> [CheckResult]
  /// Keys a running transport takes from a reloaded config (`ReconfigurableTransport`); a change to any other needs
  /// a restart.
  package var liveOptions: Set<String>

  /// The rooms a transport's own settings keep the bot in, and that it leaves when one is taken off (an IRC network's
  /// `channels`); nil where taking a room off leaves nothing (Matrix: see `MatrixTransport.reconfigure`). A reload
  /// pauses a room so left that still has subscriptions, rather than queueing relays it can no longer send.
  package var ownRooms: (@Sendable (TransportSettings, TransportBuildContext) throws -> [String])?
  /// Every room the transport's own settings name (IRC `channels`; Matrix `rooms` and `threadRooms`), as written:
  /// room power counts for the forum account there (`PermissionPolicy.namedRooms`). Defaults to `ownRooms`.
  package var namedRooms: (@Sendable (TransportSettings, TransportBuildContext) throws -> [String])?

  package init(
    type: TransportType, summary: String, options: [String: OptionType], requiredOptions: [String] = [],
    secretKeys: [String] = [],
    check: @escaping @Sendable (_ options: [String: JSONValue], _ path: String, _ reader: inout ConfigReader) -> Void =
      { _, _, _ in },
    prepare: @escaping @Sendable ([String: JSONValue]) -> [String: JSONValue] = { $0 },
    roleSettings: @escaping @Sendable (TransportSettings) throws -> TransportRoleSettings = { _ in .console },
    make: @escaping @Sendable (TransportSettings, TransportBuildContext) throws -> any ChatTransport,
    probe: @escaping @Sendable (TransportSettings, TransportBuildContext) async -> CheckResult,
    checkState:
      @escaping @Sendable (TransportSettings, (any TransportStateStore)?, TransportBuildContext) async -> [CheckResult] =
      { _, _, _ in [] },
    roomMembers: RoomMembers? = nil,
    checkRooms: RoomsCheck? = nil,
    liveOptions: Set<String> = [],
    ownRooms: (@Sendable (TransportSettings, TransportBuildContext) throws -> [String])? = nil,
    namedRooms: (@Sendable (TransportSettings, TransportBuildContext) throws -> [String])? = nil
  ) {
    self.ownRooms = ownRooms
    self.namedRooms = namedRooms ?? ownRooms
    self.roomMembers = roomMembers
    self.checkRooms = checkRooms
    self.liveOptions = liveOptions
    self.type = type
    self.summary = summary
    self.options = options
    self.requiredOptions = requiredOptions
    self.secretKeys = secretKeys
    self.check = check
    self.prepare = prepare
    self.roleSettings = roleSettings
    self.make = make
    self.probe = probe
    self.checkState = checkState
  }

  /// What a transport of `type` takes and how it is built.
  package static func of(_ type: TransportType) -> TransportKind {
    switch type {
    case .console: .console
    case .matrix: .matrix
    case .irc: .irc
    }
  }

  /// Checks one transport's keys: unknown ones, shapes, required ones, secrets resolvable, then `check`.
  func validate(
    _ settings: TransportSettings, at path: String, environment: [String: String], reader: inout ConfigReader
  ) {
    let known = ["type", "name"] + options.keys.sorted()
    for key in settings.options.keys.sorted() where !options.keys.contains(key) && !ConfigReader.isComment(key) {
      let hint = ConfigReader.didYouMean(key, in: known)
      reader.report(ConfigReader.join(path, key), "unknown key for a \(type.rawValue) transport\(hint)")
    }
    var shaped = settings.options
    for (key, optionType) in options.sorted(by: { $0.key < $1.key }) where settings.options[key] != nil {
      let ok: Bool
      switch optionType {
      case .string: ok = reader.string(settings.options, key, at: path) != nil
      case .secret: ok = reader.secret(settings.options, key, at: path) != nil
      case .bool: ok = reader.bool(settings.options, key, at: path) != nil
      case .number: ok = reader.number(settings.options, key, at: path) != nil
      case .integer: ok = reader.integer(settings.options, key, at: path) != nil
      case .strings: ok = reader.strings(settings.options, key, at: path) != nil
      case .custom: ok = true
      }
      if !ok { shaped[key] = nil }
    }
    for key in requiredOptions where settings.options[key] == nil || settings.options[key] == .null {
      reader.report(ConfigReader.join(path, key), "missing")
    }
    var shapedSettings = settings
    shapedSettings.options = shaped
    let resolved = shapedSettings.resolvedOptions(
      secretKeys: secretKeys, environment: environment, path: path, reader: &reader)
    check(resolved, path, &reader)
  }
}

/// What building or probing a transport may use.
package struct TransportBuildContext: Sendable {
  package var environment: [String: String]
  package var logger: Logger
  /// The bot's database (for transports that keep state, like the Matrix sync token); nil in `check`.
  package var database: BotDatabase?
  /// Where the transport being built is in the config file (`transports[2]`), for messages that name a key.
  package var settingsPath: String?
  /// The bot's data directory (where the database lives): transports keep generated secrets there (the Matrix pickle
  /// key). nil in `check`.
  package var dataDirectory: URL?
  /// `run --reset-matrix-identity`: Matrix transports replace a cross-signing identity this database does not hold.
  package var resetMatrixIdentity: Bool

  package init(
    environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = Logger(label: "awfulbot"),
    database: BotDatabase? = nil, settingsPath: String? = nil, dataDirectory: URL? = nil,
    resetMatrixIdentity: Bool = false
  ) {
    self.environment = environment
    self.logger = logger
    self.database = database
    self.settingsPath = settingsPath
    self.dataDirectory = dataDirectory
    self.resetMatrixIdentity = resetMatrixIdentity
  }
}
