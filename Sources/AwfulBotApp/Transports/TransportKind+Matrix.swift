import BotCore
import ChatBridge
import Foundation
import MatrixTransport

extension TransportKind {
  /// A Matrix account (`MatrixTransport`; keys as in `MatrixTransportConfiguration`). Its token, device id and sync
  /// position live in the bot's database (`BotDatabaseStateStore`, table `transportState`).
  package static let matrix: TransportKind = TransportKind(
    type: .matrix, summary: "a Matrix account on a homeserver",
    // The transport's own keys; their shapes and values are checked by decoding (`checkMatrix`), but for a secret's,
    // which may be {"env": "NAME"}.
    options: Dictionary(
      uniqueKeysWithValues: MatrixTransportConfiguration.configurationKeys.filter { $0 != "name" }
        .map { ($0, ["accessToken", "password", "pickleKey"].contains($0) ? OptionType.secret : .custom) }),
    requiredOptions: ["homeserver", "userID"],
    secretKeys: ["accessToken", "password", "pickleKey", "encryption.recoveryKey"],
    check: checkMatrix,
    roleSettings: { settings in
      let configuration = try settings.decodeOptions(
        MatrixTransportConfiguration.self, kind: .matrix, environment: [:], secretsRequired: false)
      return .matrix(
        memberPowerLevel: configuration.memberPowerLevel, adminPowerLevel: configuration.adminPowerLevel,
        roleOverrides: configuration.roleOverrides, allowedInviters: configuration.allowedInviters,
        userID: configuration.userID, rooms: configuration.rooms + configuration.threadRooms)
    },
    make: makeMatrix,
    probe: { settings, context in
      do {
        let configuration = try settings.decodeOptions(
          MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
        return await MatrixProbe(configuration: configuration).run()
      } catch {
        return CheckResult(.fail, "matrix \(settings.resolvedName)", detail: "\(error)")
      }
    },
    checkState: { settings, stored, context in
      guard
        let configuration = try? settings.decodeOptions(
          MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment),
        let dataDirectory = context.dataDirectory
      else { return [] }
      return await MatrixEncryptionCheck.results(
        configuration: configuration, dataDirectory: dataDirectory, stored: stored)
    },
    roomMembers: { settings, room, stored, context in
      let configuration = try settings.decodeOptions(
        MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
      // Only with a token: a password-only account would need a login (a new device) just to ask.
      guard let token = configuration.accessToken, !token.isEmpty else { return nil }
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
      return try await client.joinedMembers(token: token, roomID: roomID).filter { $0 != configuration.userID }
    },
    checkRooms: { settings, rooms, stored, context in
      guard
        let configuration = try? settings.decodeOptions(
          MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
      else { return [] }
      return await MatrixAliasCheck.results(configuration: configuration, rooms: rooms, stored: stored)
    },
    liveOptions: MatrixTransport.liveKeys,
    namedRooms: { settings, context in
      let configuration = try settings.decodeOptions(
        MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
      return configuration.rooms + configuration.threadRooms
    })

  private static func makeMatrix(_ settings: TransportSettings, _ context: TransportBuildContext) throws
    -> any ChatTransport
  {
    var configuration = try settings.decodeOptions(
      MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
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
      logger: context.logger)
  }

  /// The transport's own checks (`MatrixTransportConfiguration`'s decoding, which `validationErrors()` shares), each
  /// problem at its key path in the config file: the config accepts exactly what the transport will run with,
  /// checked in one place. What only the application knows is said here: a token or password may come from the
  /// environment, and is not asked for where secrets are not read (`status`).
  private static func checkMatrix(_ options: [String: JSONValue], path: String, reader: inout ConfigReader) {
    func at(_ key: String) -> String { key.isEmpty ? path : ConfigReader.join(path, key) }
    // Keys the application already reported (a missing key, a secret's {"env": "NAME"} not set) are not reported
    // again; a key may have more than one problem of the transport's own.
    let reported = reader.reportedPaths
    do {
      _ = try JSONValue.object(options).decode(MatrixTransportConfiguration.self)
    } catch let error as MatrixConfigurationError {
      for problem in error.keyedProblems {
        var reason = problem.reason
        if problem == MatrixTransportConfiguration.credentialsProblem {
          // A secret whose {"env": "NAME"} is not set is already reported at its key.
          guard reader.checksSecrets, !reported.contains(at("accessToken")), !reported.contains(at("password"))
          else { continue }
          reason += " (or $AWFULBOT_<NAME>_ACCESS_TOKEN / _PASSWORD)"
        }
        guard !reported.contains(at(problem.key)) else { continue }
        reader.report(at(problem.key), reason)
      }
    } catch {
      reader.report(path, "\(error)")
    }
  }
}
