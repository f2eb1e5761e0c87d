import GRDB

/// The queries the engine needs, inside one transaction opened by `BotDatabase.read` or `write`.
/// Only valid within the closure it was handed to.
package struct StoreTransaction {
  let db: Database
}
