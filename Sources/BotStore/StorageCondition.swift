import Foundation
import Synchronization

/// Whether the database's disk has room, as the last writes found it: full from the first write SQLite refused with
/// SQLITE_FULL until a probe (`BotDatabase.checkStorage`) commits again.
///
/// A write that succeeds does not clear it. On a full disk small writes still land (an update in place, a WAL frame in
/// space the file already has) while anything that needs a new page fails; clearing on any success would flip the
/// state, and its log line, at every poll.
package final class StorageCondition: Sendable {
  /// A change of the condition, with the moment the disk was found full.
  package enum Change: Sendable, Hashable {
    case full(since: Date)
    case room(fullSince: Date)
  }

  /// Called at each change, outside the lock.
  package typealias Observer = @Sendable (Change) -> Void

  private struct State {
    var fullSince: Date?
    var observers: [Observer] = []
  }

  private let state = Mutex(State())

  package init() {}

  /// When writes started failing for lack of space; nil while the disk has room.
  package var fullSince: Date? { state.withLock { $0.fullSince } }

  /// Calls `observer` at every change from now on.
  package func observe(_ observer: @escaping Observer) {
    state.withLock { $0.observers.append(observer) }
  }

  func noteFull(at date: Date = Date()) {
    let observers: [Observer] = state.withLock { state in
      guard state.fullSince == nil else { return [] }
      state.fullSince = date
      return state.observers
    }
    for observer in observers { observer(.full(since: date)) }
  }

  func noteRoom() {
    let (since, observers): (Date?, [Observer]) = state.withLock { state in
      guard let since = state.fullSince else { return (nil, []) }
      state.fullSince = nil
      return (since, state.observers)
    }
    guard let since else { return }
    for observer in observers { observer(.room(fullSince: since)) }
  }
}
