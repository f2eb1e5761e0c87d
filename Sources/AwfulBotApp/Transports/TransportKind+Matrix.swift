import BotCore
import ChatBridge
import Foundation
import MatrixCrypto
import MatrixTransport

extension TransportKind {
  /// A Matrix account (`MatrixTransport`; keys as in `MatrixTransportConfiguration`). Its token, device id and sync
  /// position live in the bot's database (`BotDatabaseStateStore`, table `transportState`).
  package static let matrix: TransportKind = TransportKind(
    type: .matrix, summary: "a Matrix account on a homeserver",
    options: [
      "homeserver": .string, "userID": .string, "accessToken": .secret, "password": .secret, "deviceID": .string,
      "deviceName": .string, "rooms": .strings, "allowedInviters": .strings, "memberPowerLevel": .integer,
      "adminPowerLevel": .integer, "roleOverrides": .custom, "threadRooms": .strings, "syncTimeoutSeconds": .number,
      "suppressLinkPreviews": .bool, "pickleKey": .secret, "undecryptableWaitSeconds": .number,
      "encryption": .custom, "acceptedIdentities": .custom, "images": .custom,
    ],
    requiredOptions: ["homeserver", "userID"],
    secretKeys: ["accessToken", "password", "pickleKey", "encryption.recoveryKey"],
    check: checkMatrix, make: makeMatrix,
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
    roomMembers: { settings, room, context in
      let configuration = try settings.decodeOptions(
        MatrixTransportConfiguration.self, kind: .matrix, environment: context.environment)
      // Only with a token: a password-only account would need a login (a new device) just to ask.
      guard let token = configuration.accessToken, !token.isEmpty else { return nil }
      let client = MatrixClient(homeserver: configuration.homeserver)
      let roomID = room.hasPrefix("#") ? try await client.resolveAlias(token: token, alias: room) : room
      return try await client.joinedMembers(token: token, roomID: roomID).filter { $0 != configuration.userID }
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

  private static func checkMatrix(_ options: [String: JSONValue], path: String, reader: inout ConfigReader) {
    func at(_ key: String) -> String { ConfigReader.join(path, key) }
    if case .string(let text)? = options["homeserver"] {
      if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        url.host != nil
      {
      } else {
        reader.report(at("homeserver"), "expected an http(s) URL, got \"\(text)\"")
      }
    }
    if case .string(let user)? = options["userID"], !MatrixIdentifiers.isUserID(user) {
      reader.report(at("userID"), "expected a full Matrix user id like @awfulbot:example.org, got \"\(user)\"")
    }
    let hasToken = options["accessToken"].map { $0 != .null } ?? false
    let hasPassword = options["password"].map { $0 != .null } ?? false
    if reader.checksSecrets, !hasToken, !hasPassword, !reader.hasProblem(at: at("accessToken")),
      !reader.hasProblem(at: at("password"))
    {
      reader.report(path, "set accessToken or password (or $AWFULBOT_<NAME>_ACCESS_TOKEN / _PASSWORD)")
    }
    for key in ["rooms", "threadRooms"] {
      guard case .array(let rooms)? = options[key] else { continue }
      for (index, room) in rooms.enumerated() {
        if case .string(let name) = room, !MatrixIdentifiers.isRoom(name) {
          reader.report(
            "\(at(key))[\(index)]", "expected a room id (!id:server) or alias (#name:server), got \"\(name)\"")
        }
      }
    }
    if case .object(let images)? = options["images"], let rooms = images["rooms"] {
      let path = ConfigReader.join(at("images"), "rooms")
      if case .object(let modes) = rooms {
        for (room, mode) in modes.sorted(by: { $0.key < $1.key }) {
          if !MatrixIdentifiers.isRoom(room) {
            reader.report(path, "expected room ids (!id:server) or aliases (#name:server) as keys, got \"\(room)\"")
          }
          guard case .string(let name) = mode, MatrixImageSettings.Mode(rawValue: name) != nil else {
            reader.report("\(path).\(room)", "expected inline or links")
            continue
          }
        }
      } else {
        reader.report(path, "expected an object of room to inline or links, got \(rooms.kindName)")
      }
    }
    if case .number(let member)? = options["memberPowerLevel"], case .number(let admin)? = options["adminPowerLevel"],
      member > admin
    {
      reader.report(at("memberPowerLevel"), "must not exceed adminPowerLevel (\(Int(admin)))")
    }
    if let overrides = options["roleOverrides"] {
      if case .object(let members) = overrides {
        for (user, role) in members.sorted(by: { $0.key < $1.key }) {
          guard case .string(let name) = role, Role(name: name) != nil else {
            reader.report("\(at("roleOverrides")).\(user)", "expected viewer, member or admin")
            continue
          }
        }
      } else {
        reader.report(at("roleOverrides"), "expected an object of user id to role, got \(overrides.kindName)")
      }
    }
    if let accepted = options["acceptedIdentities"] {
      if case .object(let users) = accepted {
        for (user, key) in users.sorted(by: { $0.key < $1.key }) where !ConfigReader.isComment(user) {
          if !MatrixIdentifiers.isUserID(user) {
            reader.report("\(at("acceptedIdentities")).\(user)", "expected a full Matrix user id as the key")
          }
          if key.stringValue.map({ $0.filter { !$0.isWhitespace }.count != 43 }) ?? true {
            reader.report(
              "\(at("acceptedIdentities")).\(user)",
              "expected the user's new master key as the bot's notice shows it (43 characters, spaces ignored)")
          }
        }
      } else {
        reader.report(at("acceptedIdentities"), "expected an object of user id to master key, got \(accepted.kindName)")
      }
    }
    if let encryption = options["encryption"] {
      checkEncryption(encryption, at: at("encryption"), reader: &reader)
    }
    if case .number(let seconds)? = options["syncTimeoutSeconds"], seconds <= 0 || seconds > 300 {
      reader.report(at("syncTimeoutSeconds"), "expected 1 to 300 seconds, got \(seconds)")
    }
  }

  /// `"encryption": {"enabled": bool, "trust": "cross-signed" | "any", "recoveryKey": secret}`.
  private static func checkEncryption(_ value: JSONValue, at path: String, reader: inout ConfigReader) {
    guard case .object(let members) = value else {
      reader.report(path, "expected an object like {\"trust\": \"cross-signed\"}, got \(value.kindName)")
      return
    }
    for (key, member) in members.sorted(by: { $0.key < $1.key }) where !ConfigReader.isComment(key) {
      let at = ConfigReader.join(path, key)
      switch key {
      case "enabled":
        if member.boolValue == nil { reader.report(at, "expected true or false, got \(member.kindName)") }
      case "trust":
        if member.stringValue.flatMap(MatrixDeviceTrust.init(rawValue:)) == nil {
          reader.report(at, "expected \(MatrixDeviceTrust.allCases.map(\.rawValue).joined(separator: " or "))")
        }
      case "recoveryKey":
        switch member {
        case .string(let typed) where !typed.isEmpty:
          do {
            _ = try RecoveryKey(parsing: typed)
          } catch {
            reader.report(at, error.description)
          }
        case .string, .null: break
        default: reader.report(at, "expected the recovery key as Element shows it, or {\"env\": \"NAME\"}")
        }
      default:
        reader.report(at, "unknown key (enabled, trust, recoveryKey)")
      }
    }
  }
}
