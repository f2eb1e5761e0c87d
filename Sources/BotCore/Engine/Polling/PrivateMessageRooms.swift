import ChatBridge
import Synchronization

/// The rooms told about new private messages: the configured ones, with Matrix aliases resolved once the
/// application could (`add`). The first such room wakes the poller, which then starts reading the inbox.
package final class PrivateMessageRooms: Sendable {
  private let rooms: Mutex<[RoomRef]>
  private let pollSignal: WakeSignal

  init(_ rooms: [RoomRef], pollSignal: WakeSignal) {
    self.rooms = Mutex(rooms)
    self.pollSignal = pollSignal
  }

  /// Every room private messages are told in, in the order they were added.
  package var all: [RoomRef] { rooms.withLock { $0 } }

  /// Adds a room once its id is known (at start or later); the first one wakes the poller.
  package func add(_ room: RoomRef) {
    let wasEmpty = rooms.withLock { rooms in
      let wasEmpty = rooms.isEmpty
      if !rooms.contains(room) { rooms.append(room) }
      return wasEmpty
    }
    if wasEmpty { pollSignal.signal() }
  }

  /// Stops telling `room` (a reloaded config no longer names it); returns whether it was one of them.
  @discardableResult
  package func remove(_ room: RoomRef) -> Bool {
    rooms.withLock { rooms in
      guard let index = rooms.firstIndex(of: room) else { return false }
      rooms.remove(at: index)
      return true
    }
  }

  /// Whether `room` is one of them.
  package func contains(_ room: RoomRef) -> Bool {
    all.contains(room)
  }
}
