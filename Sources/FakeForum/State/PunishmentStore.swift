import Foundation

/// The Leper's Colony's entries, listed newest first as `banlist.php` shows them.
struct PunishmentStore {
  private var entries: [FakePunishment] = []
  private var nextID = 1

  var count: Int { entries.count }

  /// Adds an entry under the next id. Returns the id.
  mutating func add(
    kind: FakePunishment.Kind, date: Date, postID: Int?, subjectID: Int, reasonHTML: String, requesterID: Int,
    approverID: Int?
  ) -> Int {
    let id = nextID
    nextID += 1
    entries.append(
      FakePunishment(
        id: id, kind: kind, date: date, postID: postID, subjectID: subjectID, reasonHTML: reasonHTML,
        requesterID: requesterID, approverID: approverID))
    return id
  }

  /// Every entry (only `subjectID`'s when given), newest first; entries of the same minute, the later added first.
  func listed(subjectID: Int? = nil) -> [FakePunishment] {
    entries.filter { subjectID == nil || $0.subjectID == subjectID }
      .sorted { $0.date != $1.date ? $0.date > $1.date : $0.id > $1.id }
  }
}
