import Foundation

/// One entry of the emulated Leper's Colony (`banlist.php`): who was punished, how, by whom, why, and for which post.
package struct FakePunishment: Sendable, Hashable, Codable {
  /// The type column, as the forum prints it (upper-cased on the page).
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case probation, ban, autoban, permaban

    /// The type column's text.
    var label: String { rawValue.uppercased() }
  }

  /// The emulator's own number for the entry (the real page shows none); later entries have larger ids.
  package var id: Int
  package var kind: Kind
  /// Kept to the minute, as the page prints it.
  package var date: Date
  /// The post the type column links, when there is one. Not checked against the stored posts: a punished post may
  /// be deleted since.
  package var postID: Int?
  package var subjectID: Int
  /// The reason as the moderator wrote it: HTML, served as it is (the page does not escape it). A probation's
  /// "User loses posting privileges for …" sentence is part of it.
  package var reasonHTML: String
  package var requesterID: Int
  /// Nil leaves the "Approved By" column empty.
  package var approverID: Int?

  package init(
    id: Int, kind: Kind, date: Date, postID: Int?, subjectID: Int, reasonHTML: String, requesterID: Int,
    approverID: Int?
  ) {
    self.id = id
    self.kind = kind
    self.date = date
    self.postID = postID
    self.subjectID = subjectID
    self.reasonHTML = reasonHTML
    self.requesterID = requesterID
    self.approverID = approverID
  }
}
