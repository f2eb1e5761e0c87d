import ChatBridge
import Foundation

extension MatrixTransportConfiguration {
  /// The config file's keys, in the order problems are reported (the order a config is best read in).
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, homeserver, userID, accessToken, password, deviceID, deviceName, rooms, allowedInviters
    case memberPowerLevel, adminPowerLevel, roleOverrides, threadRooms, syncTimeoutSeconds, suppressLinkPreviews
    case pickleKey, undecryptableWaitSeconds, encryption, acceptedIdentities, images
  }

  /// Reads every key, a value of the wrong shape reported and its default taken, then makes the checks of
  /// `validationErrors()`: a configuration that decodes is one the transport runs with, and one that does not says
  /// everything wrong with it at once (`MatrixConfigurationError`, each problem with its key). Decoded with
  /// `CodingUserInfoKey.secretsOptional`, an account with neither token nor password is not a problem.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>(decoder)
    let written = reader.string(.homeserver, required: true)
    let homeserver = written.flatMap { URL(string: $0) }
    if let written, homeserver == nil { reader.report("homeserver", Self.homeserverProblem(written)) }
    // A placeholder where the homeserver could not be read: its problem is already reported, and the checks below
    // skip every key that has one.
    self.init(homeserver: homeserver ?? URL(fileURLWithPath: "/"), userID: reader.string(.userID, required: true) ?? "")
    let defaults = self
    name = reader.string(.name) ?? defaults.name
    accessToken = reader.string(.accessToken)
    password = reader.string(.password)
    deviceID = reader.string(.deviceID)
    deviceName = reader.string(.deviceName) ?? defaults.deviceName
    rooms = reader.strings(.rooms) ?? []
    allowedInviters = reader.strings(.allowedInviters) ?? []
    memberPowerLevel = reader.integer(.memberPowerLevel) ?? defaults.memberPowerLevel
    adminPowerLevel = reader.integer(.adminPowerLevel) ?? defaults.adminPowerLevel
    roleOverrides = Self.roleOverrides(reader) ?? [:]
    threadRooms = reader.strings(.threadRooms) ?? []
    syncTimeoutSeconds = reader.number(.syncTimeoutSeconds) ?? defaults.syncTimeoutSeconds
    suppressLinkPreviews = reader.bool(.suppressLinkPreviews) ?? defaults.suppressLinkPreviews
    pickleKey = reader.string(.pickleKey)
    undecryptableWaitSeconds = reader.number(.undecryptableWaitSeconds) ?? defaults.undecryptableWaitSeconds
    encryption =
      reader.nested(.encryption, expected: "expected an object like {\"trust\": \"cross-signed\"}")
      ?? defaults.encryption
    acceptedIdentities = Self.acceptedIdentities(reader) ?? [:]
    images = reader.nested(.images, expected: "expected an object") ?? defaults.images
    // A check of a key whose value could not be read would judge the default taken in its place; and `images`
    // checked itself when it was read.
    let unread = Set(reader.problems.map(\.key))
    let checked = problems(secretsRequired: reader.secretsRequired).filter {
      !unread.contains($0.key) && !reader.problems.contains($0)
    }
    let found = reader.problems + checked
    if !found.isEmpty { throw MatrixConfigurationError(Self.inFileOrder(found)) }
  }

  /// `roleOverrides`: user id → role, by name in any case (`Role(name:)`): the one place a role written for a
  /// Matrix user is read. An entry that is not a role is reported at `roleOverrides.<user>` and left out.
  private static func roleOverrides(_ reader: ConfigReader<CodingKeys>) -> [String: Role]? {
    reader.entries(.roleOverrides, expected: "expected an object of user id to role") { written in
      guard case .string(let name) = written, let role = Role(name: name) else {
        return .failure(.init("", "expected viewer, member or admin"))
      }
      return .success(role)
    }
  }

  /// `acceptedIdentities`: user id → master key as written (checked by `problems`); notes (`_comment`) left out.
  private static func acceptedIdentities(_ reader: ConfigReader<CodingKeys>) -> [String: String]? {
    reader.entries(
      .acceptedIdentities, expected: "expected an object of user id to master key", skipsNotes: true
    ) { written in
      guard case .string(let key) = written else { return .failure(.init("", Self.masterKeyProblem)) }
      return .success(key)
    }
  }

  /// Problems in the order of `CodingKeys`, those about the account as a whole last.
  static func inFileOrder(_ problems: [ConfigProblem]) -> [ConfigProblem] {
    ConfigProblem.inOrder(problems, keys: configurationKeys)
  }
}

extension MatrixTransportConfiguration: KeyedConfiguration {
  /// Each key's setting as the file writes it, for the reload's comparison (`changedKeys(to:)`).
  package func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .name: name
    case .homeserver: homeserver
    case .userID: userID
    case .accessToken: accessToken
    case .password: password
    case .deviceID: deviceID
    case .deviceName: deviceName
    case .rooms: rooms
    case .allowedInviters: allowedInviters
    case .memberPowerLevel: memberPowerLevel
    case .adminPowerLevel: adminPowerLevel
    case .roleOverrides: roleOverrides
    case .threadRooms: threadRooms
    case .syncTimeoutSeconds: syncTimeoutSeconds
    case .suppressLinkPreviews: suppressLinkPreviews
    case .pickleKey: pickleKey
    case .undecryptableWaitSeconds: undecryptableWaitSeconds
    case .encryption: encryption
    case .acceptedIdentities: acceptedIdentities
    case .images: images
    }
  }
}
