import BotCore
import ChatBridge
import Foundation

/// A type of chat connection the config's `transports[].type` can name, and everything the application asks of it.
/// Its settings are one typed value, `Configuration`, decoded once from the file's own keys when the config is read
/// (secrets already taken from the environment: `TransportSettings`); every step below takes that value.
///
/// How to add a transport (docs/architecture.md, "How to add a transport"):
/// 1. a module with the transport (`ChatTransport`) and its configuration type: `Decodable` from the config file's
///    keys as users write them, reporting every problem with its key (`ConfigProblems`), and `KeyedConfiguration`
///    so a reload can name what changed;
/// 2. one file in this folder, `<Name>Plugin.swift`, with a type conforming to this protocol (only `type`,
///    `summary`, `make` and `probe` have no default);
/// 3. one entry in `TransportPlugins.all`, and the module in Package.swift and scripts/check-module-rules.
package protocol TransportPlugin: Sendable {
  associatedtype Configuration: KeyedConfiguration & Decodable

  /// What `transports[].type` says (`matrix`).
  static var type: TransportType { get }
  /// One line for `setup` and error messages.
  static var summary: String { get }
  /// Keys (dotted for nested ones) holding secrets: each may be `{"env": "NAME"}`, and when left out is taken from
  /// `AWFULBOT_<NAME>_<KEY>`; `backup` and `check` name where each comes from. A `*` part stands for each key of the
  /// object there (`rooms.*.webhook`: `AWFULBOT_DISCORD_ROOMS_GENERAL_WEBHOOK` for the room `general`).
  static var secretKeys: [String] { get }
  /// Keys a running transport takes from a reloaded config (`reconfigure`); a change to any other needs a restart.
  static var liveKeys: Set<String> { get }

  /// Builds the transport.
  static func make(_ configuration: Configuration, context: TransportBuildContext) throws -> any ChatTransport
  /// Reaches the service the way `check` should (Matrix `whoami`, IRC connect-register-quit).
  static func probe(_ configuration: Configuration, context: TransportBuildContext) async -> CheckResult
  /// Applies the live keys of a reloaded configuration to the running `transport` built from `previous`; one
  /// sentence per change. Throws when the new settings cannot be applied.
  static func reconfigure(
    _ transport: any ChatTransport, from previous: Configuration, to next: Configuration,
    context: TransportBuildContext
  ) async throws -> [String]

  /// What the settings say about who may act (`check`'s permission table), as the transport reads them.
  static func roleSettings(_ configuration: Configuration) -> TransportRoleSettings
  /// The rooms the settings keep the bot in, and that it leaves when one is taken off (an IRC network's
  /// `channels`); nil where taking a room off leaves nothing (Matrix: see `MatrixTransport.reconfigure`). A reload
  /// pauses a room so left that still has subscriptions, rather than queueing relays it can no longer send.
  static func rooms(_ configuration: Configuration) -> [String]?
  /// Every room the settings name, as written (IRC `channels`; Matrix `rooms` and `threadRooms`): room power counts
  /// for the forum account there (`PermissionPolicy.namedRooms`). Defaults to `rooms`.
  static func namedRooms(_ configuration: Configuration) -> [String]
  /// The files the transport keeps in the data directory that belong with a backup of the database (`awfulbot
  /// backup` prints them).
  static func keptFiles(_ configuration: Configuration, name: String, dataDirectory: URL) -> [BackupKeptFile]

  /// `check`'s lines about the state the transport keeps in the data directory and database (`stored`, nil before
  /// the first run): Matrix's encryption keys and published identity.
  static func checkState(
    _ configuration: Configuration, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async -> [CheckResult]
  /// `check`'s lines about the rooms the config names on this transport, as written, each with whether it is a
  /// private-message room, read with the transport's saved state: Matrix says what each alias stands for.
  static func checkRooms(
    _ configuration: Configuration, rooms: [String: Bool], stored: (any TransportStateStore)?,
    context: TransportBuildContext
  ) async -> [CheckResult]
  /// Who is in a room, for `check`'s privacy warning about private-message rooms (the bot's own account left out).
  /// Given the transport's saved state: a Matrix alias is the room it is pinned to. Throws when asking failed.
  static func roomMembers(
    _ configuration: Configuration, room: String, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async throws -> RoomMembersAnswer

  /// A problem the configuration's decoding found, as the config file's reader should say it (`reported`: whether
  /// the reader already said something about a key, such as a secret's variable not set); nil leaves it out.
  static func fileProblem(_ problem: ConfigProblem, checksSecrets: Bool, reported: (String) -> Bool) -> ConfigProblem?
}

/// What `TransportPlugin.roomMembers` found.
package enum RoomMembersAnswer: Sendable, Hashable {
  case members([String])
  /// The service cannot tell before the bot joins (IRC).
  case unknownBeforeJoining
  /// The settings give no way to ask; the reason ends "cannot tell who is in the room …" (`without an access token`).
  case cannotAsk(String)
}

extension TransportPlugin {
  package static var secretKeys: [String] { [] }
  package static var liveKeys: Set<String> { [] }

  package static func reconfigure(
    _ transport: any ChatTransport, from previous: Configuration, to next: Configuration,
    context: TransportBuildContext
  ) async throws -> [String] { [] }

  package static func rooms(_ configuration: Configuration) -> [String]? { nil }
  package static func namedRooms(_ configuration: Configuration) -> [String] { rooms(configuration) ?? [] }
  package static func keptFiles(_ configuration: Configuration, name: String, dataDirectory: URL) -> [BackupKeptFile] {
    []
  }

  package static func checkState(
    _ configuration: Configuration, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async -> [CheckResult] { [] }

  package static func checkRooms(
    _ configuration: Configuration, rooms: [String: Bool], stored: (any TransportStateStore)?,
    context: TransportBuildContext
  ) async -> [CheckResult] { [] }

  package static func roomMembers(
    _ configuration: Configuration, room: String, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async throws -> RoomMembersAnswer { .unknownBeforeJoining }

  package static func fileProblem(_ problem: ConfigProblem, checksSecrets: Bool, reported: (String) -> Bool)
    -> ConfigProblem?
  { problem }
}
