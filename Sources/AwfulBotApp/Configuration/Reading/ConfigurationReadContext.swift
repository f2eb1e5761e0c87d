import ChatBridge
import Synchronization

/// What one read of a configuration shares between its sections: the environment secrets are checked against, and
/// every problem in the order the file is read, so all of them come out at once. Reaches each section's reader
/// through the decoder's `userInfo` (`.configProblemSink`).
final class ConfigurationReadContext: ConfigProblemSink {
  let environment: [String: String]
  /// False for tools that only need the data directory (`status`, `export`, `migrate`): they must work in a shell
  /// that does not have the daemon's secrets.
  let checksSecrets: Bool
  private let state = Mutex(State())

  private struct State {
    var found: [ConfigProblem] = []
    /// Names of the transports read so far (those of an unknown type too): rooms and roles that name one are checked
    /// against them, and a transport that was already reported is not reported again through them.
    var transportNames: Set<String>?
  }

  init(environment: [String: String], checksSecrets: Bool = true) {
    self.environment = environment
    self.checksSecrets = checksSecrets
  }

  /// Every problem reported, at its full key path, in the order read.
  var found: [ConfigProblem] { state.withLock { $0.found } }

  func report(_ problem: ConfigProblem) {
    state.withLock { $0.found.append(problem) }
  }

  var transportNames: Set<String>? {
    get { state.withLock { $0.transportNames } }
    set { state.withLock { $0.transportNames = newValue } }
  }
}
