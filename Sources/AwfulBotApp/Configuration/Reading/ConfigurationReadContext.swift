import Synchronization

/// What one read of a configuration shares between its sections: the environment secrets are checked against, and
/// every problem in the order the file is read, so all of them come out at once. Reaches each section's
/// `init(from:)` through the decoder's `userInfo`.
final class ConfigurationReadContext: Sendable {
  static let userInfoKey = CodingUserInfoKey(rawValue: "awfulbot.configuration")!

  let environment: [String: String]
  /// False for tools that only need the data directory (`status`, `export`, `migrate`): they must work in a shell
  /// that does not have the daemon's secrets.
  let checksSecrets: Bool
  private let state = Mutex(State())

  private struct State {
    var problems: [String] = []
    /// Paths already reported, so a later check does not pile a second message onto the same key.
    var reported: Set<String> = []
    /// Names of the transports read so far (those of an unknown type too): rooms and roles that name one are checked
    /// against them, and a transport that was already reported is not reported again through them.
    var transportNames: Set<String>?
  }

  init(environment: [String: String], checksSecrets: Bool = true) {
    self.environment = environment
    self.checksSecrets = checksSecrets
  }

  /// The context a section is read in; nil when the section is decoded on its own (it then throws its problems).
  static func of(_ decoder: any Decoder) -> ConfigurationReadContext? {
    decoder.userInfo[userInfoKey] as? ConfigurationReadContext
  }

  var problems: [String] { state.withLock { $0.problems } }

  func report(_ path: String, _ reason: String) {
    state.withLock {
      $0.reported.insert(path)
      $0.problems.append("\(path): \(reason)")
    }
  }

  func hasProblem(at path: String) -> Bool { state.withLock { $0.reported.contains(path) } }

  var transportNames: Set<String>? {
    get { state.withLock { $0.transportNames } }
    set { state.withLock { $0.transportNames = newValue } }
  }

  /// Problems of a part read on its own, in order.
  func append(_ problems: [String]) {
    state.withLock { $0.problems += problems }
  }
}
