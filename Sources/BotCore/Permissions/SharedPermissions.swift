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
}
