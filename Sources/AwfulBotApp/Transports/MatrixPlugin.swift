import BotCore
import ChatBridge
import Foundation
import MatrixTransport

/// A Matrix account (`MatrixTransport`; keys as in `MatrixTransportConfiguration`). Its token, device id and sync
/// position live in the bot's database (`BotDatabaseStateStore`, table `transportState`).
package enum MatrixPlugin: TransportPlugin {
  package typealias Configuration = MatrixTransportConfiguration

  package static let type = TransportType.matrix
  package static let summary = "a Matrix account on a homeserver"
  package static let secretKeys = ["accessToken", "password", "pickleKey", "encryption.recoveryKey"]
  package static var liveKeys: Set<String> { MatrixTransport.liveKeys }

  package static func make(_ configuration: Configuration, context: TransportBuildContext) throws
    -> any ChatTransport
  {
    var configuration = configuration
    configuration.resetIdentity = context.resetMatrixIdentity
    // Encryption is on by default: without a pickle key in the config, one is made beside the database.
    if configuration.encryption.enabled, let directory = context.dataDirectory {
      if configuration.pickleKey?.isEmpty ?? true {
        do {
          configuration.pickleKey = try MatrixLocalSecrets.loadOrCreatePickleKey(
            at: MatrixLocalSecrets.pickleKeyFile(dataDirectory: directory, transport: configuration.name))
        } catch let error as MatrixLocalSecretsError {
          throw ConfigurationError(problems: [error.description])
        }
      }
      let recoveryFile = MatrixLocalSecrets.recoveryKeyFile(dataDirectory: directory, transport: configuration.name)
      configuration.recoveryKeyFile = recoveryFile
      if configuration.encryption.recoveryKey == nil {
        configuration.encryption.recoveryKey = MatrixLocalSecrets.recoveryKey(in: recoveryFile)
      }
    }
    guard let database = context.database else {
      throw ConfigurationError(problems: [
        "transport \(configuration.name): a Matrix transport needs the bot's database (for its session and sync position)"
      ])
    }
    return MatrixTransport(
      configuration: configuration,
      stateStore: BotDatabaseStateStore(database: database, transport: configuration.name),
      logger: context.logger, forumAttachments: context.forumAttachments)
  }

  package static func probe(_ configuration: Configuration, context: TransportBuildContext) async -> CheckResult {
    await MatrixProbe(configuration: configuration).run()
  }

  package static func reconfigure(
    _ transport: any ChatTransport, from previous: Configuration, to next: Configuration,
    context: TransportBuildContext
  ) async throws -> [String] {
    guard let matrix = transport as? MatrixTransport else { return [] }
    return await matrix.reconfigure(from: previous, to: next)
  }

  package static func roleSettings(_ configuration: Configuration) -> TransportRoleSettings {
    .matrix(
      memberPowerLevel: configuration.memberPowerLevel, adminPowerLevel: configuration.adminPowerLevel,
      roleOverrides: configuration.roleOverrides, allowedInviters: configuration.allowedInviters,
      userID: configuration.userID, rooms: namedRooms(configuration))
  }

  package static func namedRooms(_ configuration: Configuration) -> [String] {
    configuration.rooms + configuration.threadRooms
  }

  package static func keptFiles(_ configuration: Configuration, name: String, dataDirectory: URL)
    -> [BackupKeptFile]
  {
    // Encryption is on unless the config turns it off; off, the bot keeps no key files.
    guard configuration.encryption.enabled else { return [] }
    var files: [BackupKeptFile] = []
    let pickle = MatrixLocalSecrets.pickleKeyFile(dataDirectory: dataDirectory, transport: name)
    let pickleExists = FileManager.default.fileExists(atPath: pickle.path)
    // A pickle key given in the config (or its environment) replaces the file; one left from before still counts.
    if pickleExists || (configuration.pickleKey ?? "").isEmpty {
      files.append(
        BackupKeptFile(
          path: pickle.path,
          purpose: "the key transport \(name)'s Matrix encryption state in the database is sealed with; without it "
            + "the backup's Matrix keys cannot be opened",
          exists: pickleExists))
    }
    let recovery = MatrixLocalSecrets.recoveryKeyFile(dataDirectory: dataDirectory, transport: name)
    files.append(
      BackupKeptFile(
        path: recovery.path,
        purpose: "transport \(name)'s Matrix recovery key, which brings the bot's cross-signing identity back into "
          + "a new database",
        exists: FileManager.default.fileExists(atPath: recovery.path)))
    return files
  }

  package static func checkState(
    _ configuration: Configuration, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async -> [CheckResult] {
    guard let dataDirectory = context.dataDirectory else { return [] }
    return await MatrixEncryptionCheck.results(
      configuration: configuration, dataDirectory: dataDirectory, stored: stored)
  }

  package static func checkRooms(
    _ configuration: Configuration, rooms: [String: Bool], stored: (any TransportStateStore)?,
    context: TransportBuildContext
  ) async -> [CheckResult] {
    await MatrixAliasCheck.results(configuration: configuration, rooms: rooms, stored: stored)
  }

  package static func roomMembers(
    _ configuration: Configuration, room: String, stored: (any TransportStateStore)?, context: TransportBuildContext
  ) async throws -> RoomMembersAnswer {
    // Only with a token: a password-only account would need a login (a new device) just to ask.
    guard let token = configuration.accessToken, !token.isEmpty else { return .cannotAsk("without an access token") }
    let client = MatrixClient(homeserver: configuration.homeserver)
    // An alias is the room the bot keeps to (its pin), not whatever room the alias names today.
    var roomID = room
    if room.hasPrefix("#") {
      if let pinned = try await MatrixAliasCheck.pinnedRoom(alias: room, stored: stored) {
        roomID = pinned
      } else {
        roomID = try await client.resolveAlias(token: token, alias: room)
      }
    }
    return .members(try await client.joinedMembers(token: token, roomID: roomID).filter { $0 != configuration.userID })
  }

  /// An account with neither token nor password may have them in the environment: said so, and not said at all
  /// when a token or password variable was already reported not set, or where secrets are not read (`status`).
  package static func fileProblem(_ problem: ConfigProblem, checksSecrets: Bool, reported: (String) -> Bool)
    -> ConfigProblem?
  {
    guard problem == MatrixTransportConfiguration.credentialsProblem else { return problem }
    guard checksSecrets, !reported("accessToken"), !reported("password") else { return nil }
    return ConfigProblem(problem.key, problem.reason + " (or $AWFULBOT_<NAME>_ACCESS_TOKEN / _PASSWORD)")
  }
}

extension TransportType {
  package static let matrix = TransportType(rawValue: "matrix")
}
