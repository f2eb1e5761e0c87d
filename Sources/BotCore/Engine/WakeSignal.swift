import ChatBridge
import Synchronization

/// Wakes one waiting loop (a dispatcher, the poller) as soon as there is work, instead of only on a timer.
/// A signal sent while nobody waits is remembered, so the next wait returns at once. One waiter at a time.
package final class WakeSignal: Sendable {
  private struct State {
    var pending = false
    var closed = false
    var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
    var lastID: UInt64 = 0
    /// Waits up to this id have ended (timed out or cancelled) and must not suspend any more.
    var endedThrough: UInt64 = 0
    /// The last wait a signal ended.
    var signalledID: UInt64 = 0
  }

  private let state = Mutex(State())

  package init() {}

  /// Wakes the waiter now, or the next one to wait.
  package func signal() {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let waiter = state.waiter else {
        state.pending = true
        return nil
      }
      state.waiter = nil
      state.signalledID = waiter.id
      return waiter.continuation
    }
    continuation?.resume()
  }

  /// Ends waiting for good (graceful shutdown): every wait returns at once from now on.
  package func close() {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.closed = true
      defer { state.waiter = nil }
      return state.waiter?.continuation
    }
    continuation?.resume()
  }

  package var isClosed: Bool { state.withLock { $0.closed } }

  /// Returns when signalled, closed, cancelled, or after `timeout`; true unless it timed out or was cancelled.
  @discardableResult
  package func wait(timeout: Duration) async -> Bool {
    let id: UInt64? = state.withLock { state in
      if state.pending || state.closed {
        state.pending = false
        return nil
      }
      state.lastID += 1
      return state.lastID
    }
    guard let id else { return true }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.suspend(id: id) }
      group.addTask {
        try? await Task.sleep(for: timeout)
        self.end(id: id)
      }
      await group.next()
      group.cancelAll()
      self.end(id: id)
    }
    return state.withLock { $0.signalledID == id || $0.closed }
  }

  private func suspend(id: UInt64) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.endedThrough >= id { return true }
        if state.pending || state.closed {
          state.pending = false
          state.signalledID = id
          return true
        }
        state.waiter = (id, continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  private func end(id: UInt64) {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.endedThrough = max(state.endedThrough, id)
      guard let waiter = state.waiter, waiter.id == id else { return nil }
      state.waiter = nil
      return waiter.continuation
    }
    continuation?.resume()
  }
}
