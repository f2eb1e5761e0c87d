import Foundation

/// What the forum answered to an ignore-list update.
package enum IgnoreListChangeResult: Sendable, Hashable, Codable {
  case success
  /// The forum refused the list, e.g. because it names a moderator or admin (`problemUsername`).
  case rejected(problemUsername: String?, message: String)
  /// A page that is neither the confirmation nor an error.
  case unrecognized
}
