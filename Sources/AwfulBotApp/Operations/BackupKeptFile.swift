/// A file beside the database that a backup of the database does not hold but a restore needs (the Matrix pickle
/// key the encryption state in the database is sealed with, the Matrix recovery key): `awfulbot backup` names each.
package struct BackupKeptFile: Sendable, Hashable {
  package var path: String
  /// What it is and why it matters, in a clause.
  package var purpose: String
  /// Whether it is there now (a recovery key file appears only once the bot has made a recovery key).
  package var exists: Bool

  package init(path: String, purpose: String, exists: Bool) {
    self.path = path
    self.purpose = purpose
    self.exists = exists
  }
}
