import Synchronization

/// The permission policy every transport's command router reads, held once so that a reloaded config (new admins,
/// a role taken away) reaches all of them at their next command, without rebuilding the routers.
package final class SharedPermissions: Sendable {
  private let state: Mutex<PermissionPolicy>

  package init(_ policy: PermissionPolicy) {
    state = Mutex(policy)
  }

  package var current: PermissionPolicy {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }

  /// Takes a reloaded config's grants and forum names; the named rooms stay (they are replaced as their ids are found).
  package func replaceGrants(with policy: PermissionPolicy) {
    state.withLock {
      $0.grants = policy.grants
      $0.defaultRole = policy.defaultRole
      $0.forumNames = policy.forumNames
    }
  }

  /// A room the config names, once its id is known (a Matrix alias resolved).
  package func nameRoom(_ room: RoomRef) {
    _ = state.withLock { $0.namedRooms.insert(room) }
  }

  /// The rooms a reloaded config names, as far as their ids are known.
  package func replaceNamedRooms(with rooms: Set<RoomRef>) {
    state.withLock { $0.namedRooms = rooms }
  }
}
