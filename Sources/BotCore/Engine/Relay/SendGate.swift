import Synchronization

/// Who may have a row in flight: any number of rows at once (shared), or one suspect row alone (exclusive). A suspect
/// is a row the process died with in hand before (`OutboxRecord.crashes` > 0); sent alone, in every room and on every
/// transport, a second death is its own, so the guard parks the row that stops the bot and never one that was merely
/// in flight beside it. Exclusive waiters go first: shared entries wait while one is queued.
///
/// Every `enter` is matched by a `leave` of the same kind. Waiting cannot be cancelled: every holder leaves once its
/// row's send ends, and shutdown cancels sends.
final class SendGate: Sendable {
  private struct Waiter {
    var exclusive: Bool
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var shared = 0
    var exclusive = false
    var waiters: [Waiter] = []

    var exclusiveWaiting: Bool { waiters.contains { $0.exclusive } }

    mutating func tryEnter(exclusive wantsExclusive: Bool) -> Bool {
      if wantsExclusive {
        guard shared == 0, !exclusive, waiters.isEmpty else { return false }
        exclusive = true
      } else {
        guard !exclusive, !exclusiveWaiting else { return false }
        shared += 1
      }
      return true
    }

    /// Admits waiters in order while they fit; returns whom to resume.
    mutating func admit() -> [CheckedContinuation<Void, Never>] {
      var ready: [CheckedContinuation<Void, Never>] = []
      while let first = waiters.first {
        if first.exclusive {
          guard shared == 0, !exclusive else { break }
          exclusive = true
        } else {
          guard !exclusive else { break }
          shared += 1
        }
        ready.append(waiters.removeFirst().continuation)
        if first.exclusive { break }
      }
      return ready
    }
  }

  private let state = Mutex(State())

  /// True while a suspect waits for the others to finish: room queues then stop preparing rows ahead.
  var suspectWaiting: Bool { state.withLock { $0.exclusiveWaiting || $0.exclusive } }

  func enter(exclusive: Bool) async {
    if state.withLock({ $0.tryEnter(exclusive: exclusive) }) { return }
    await withCheckedContinuation { continuation in
      let admitted = state.withLock { state -> Bool in
        if state.tryEnter(exclusive: exclusive) { return true }
        state.waiters.append(Waiter(exclusive: exclusive, continuation: continuation))
        return false
      }
      if admitted { continuation.resume() }
    }
  }

  func leave(exclusive: Bool) {
    let ready = state.withLock { state in
      if exclusive { state.exclusive = false } else { state.shared -= 1 }
      return state.admit()
    }
    for continuation in ready { continuation.resume() }
  }
}
