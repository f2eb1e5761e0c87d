import Synchronization

/// How a command's answer goes out, beyond its lines: a handler that finishes what an earlier answer started
/// (`confirm` after a preview) may have the transport replace that answer instead of adding a message.
package final class AnswerOptions: Sendable {
  private let replacing = Mutex<String?>(nil)

  package init() {}

  /// The chat service's id of an earlier answer to replace (transports with `edits` only).
  package var replaces: String? {
    get { replacing.withLock { $0 } }
    set { replacing.withLock { $0 = newValue } }
  }
}
