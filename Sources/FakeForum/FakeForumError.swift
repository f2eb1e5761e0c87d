/// A call to the emulator's API named something that does not exist.
package enum FakeForumError: Error, Sendable, Hashable, CustomStringConvertible {
  case unknownUser(String)
  case unknownForum(Int)
  case unknownThread(Int)
  case unknownPost(Int)
  case unknownPrivateMessage(Int)
  case duplicateID(String)
  case notRunning
  case invalidArgument(String)

  package var description: String {
    switch self {
    case .unknownUser(let user): "FakeForum has no user \(user)."
    case .unknownForum(let id): "FakeForum has no forum \(id)."
    case .unknownThread(let id): "FakeForum has no thread \(id)."
    case .unknownPost(let id): "FakeForum has no post \(id)."
    case .unknownPrivateMessage(let id): "FakeForum has no private message \(id)."
    case .duplicateID(let what): "FakeForum already has \(what)."
    case .notRunning: "FakeForum is not running; call start() first."
    case .invalidArgument(let message): "FakeForum: \(message)"
    }
  }
}
