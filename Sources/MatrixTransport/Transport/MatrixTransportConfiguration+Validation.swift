import ChatBridge
import Foundation

extension MatrixTransportConfiguration {
  /// An account with neither token nor password: the problem the application words for its config file (where the
  /// secrets may come from the environment).
  package static let credentialsProblem = ConfigProblem("", "set accessToken or password")

  static let masterKeyProblem =
    "expected the user's new master key as the bot's notice shows it (43 characters, spaces ignored)"

  static func homeserverProblem(_ written: String) -> String { "expected an http(s) URL, got \"\(written)\"" }

  /// Problems that make the transport unusable, as sentences for the operator (empty: fine): those decoding finds.
  package func validationErrors() -> [String] {
    Self.inFileOrder(problems()).map { "matrix \(name): \($0)" }
  }

  /// The one set of checks of a Matrix configuration's values, each problem with its key: decoding runs them
  /// (`init(from:)`), the transport before it starts (`validationErrors()`), and the application reports them at
  /// their key paths in its config file. `secretsRequired` false: no token or password is not a problem.
  func problems(secretsRequired: Bool = true) -> [ConfigProblem] {
    var found: [ConfigProblem] = []
    if let scheme = homeserver.scheme?.lowercased(), scheme == "http" || scheme == "https", homeserver.host != nil {
    } else {
      found.append(.init("homeserver", Self.homeserverProblem(homeserver.absoluteString)))
    }
    if !MatrixIdentifiers.isUserID(userID) {
      found.append(
        .init("userID", "expected a full Matrix user id like @awfulbot:example.org, got \"\(userID)\""))
    }
    if secretsRequired, accessToken?.isEmpty ?? true, password?.isEmpty ?? true {
      found.append(Self.credentialsProblem)
    }
    // Room ids are opaque `!…` (from room version 12 on without a server part); aliases are `#name:server`.
    for (key, list) in [("rooms", rooms), ("threadRooms", threadRooms)] {
      for (index, room) in list.enumerated() where !MatrixIdentifiers.isRoom(room) {
        found.append(
          .init("\(key)[\(index)]", "expected a room id (!id:server) or alias (#name:server), got \"\(room)\""))
      }
    }
    if memberPowerLevel > adminPowerLevel {
      found.append(.init("memberPowerLevel", "must not exceed adminPowerLevel (\(adminPowerLevel))"))
    }
    if syncTimeoutSeconds <= 0 || syncTimeoutSeconds > 300 {
      found.append(.init("syncTimeoutSeconds", "expected 1 to 300 seconds, got \(syncTimeoutSeconds)"))
    }
    for (user, key) in acceptedIdentities.sorted(by: { $0.key < $1.key }) {
      if !MatrixIdentifiers.isUserID(user) {
        found.append(.init("acceptedIdentities.\(user)", "expected a full Matrix user id as the key"))
      }
      if key.filter({ !$0.isWhitespace }).count != 43 {
        found.append(.init("acceptedIdentities.\(user)", Self.masterKeyProblem))
      }
    }
    return found
  }
}
