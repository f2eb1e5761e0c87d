import Foundation
import GRDB

/// How each poll source last went.
extension StoreTransaction {
  package func sourceHealth(source: String) throws -> SourceHealthRecord? {
    try SourceHealthRecord.fetchOne(db, key: source)
  }

  package func allSourceHealth() throws -> [SourceHealthRecord] {
    try SourceHealthRecord.order(Column("source")).fetchAll(db)
  }

  package func save(_ health: SourceHealthRecord) throws {
    try health.save(db)
  }
}
