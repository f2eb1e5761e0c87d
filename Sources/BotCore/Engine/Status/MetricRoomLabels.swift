import Synchronization

/// Which rooms get a `room` label of their own in the metrics: only those the config names (`rooms[]`, a transport's
/// own rooms, `privateMessages.rooms`, by resolved id). Every other room, a room the bot was invited into or the
/// private query of each IRC nick that ever spoke to it, is `other`: outsiders must not be able to add series without
/// bound to a Prometheus server by talking to the bot.
package final class MetricRoomLabels: Sendable {
  /// The label of every room the config does not name.
  package static let other = "other"

  private let named: Mutex<@Sendable () -> Set<RoomRef>>

  /// Nothing named until `follow`: every room is `other`.
  package init(named: @escaping @Sendable () -> Set<RoomRef> = { [] }) {
    self.named = Mutex(named)
  }

  /// Reads the named rooms from `named` from now on (the app's permissions, which a reload keeps current).
  package func follow(_ named: @escaping @Sendable () -> Set<RoomRef>) {
    self.named.withLock { $0 = named }
  }

  /// The room itself when the config names it, else `other`.
  package func label(transport: String, room: String) -> String {
    let named = self.named.withLock { $0 }
    return named().contains(RoomRef(transport: transport, room: room)) ? room : Self.other
  }
}
