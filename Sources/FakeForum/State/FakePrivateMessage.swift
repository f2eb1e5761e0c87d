import Foundation

/// One copy of a private message in one user's folder: the recipient's copy sits in their Inbox, the sender's
/// (when "Save a copy" was ticked) in their Sent Items. Each copy has its own id, as on the forum.
package struct FakePrivateMessage: Sendable, Hashable, Codable {
  /// The forum's folders: Inbox and Sent Items (custom folders are not emulated).
  package enum Folder: Int, Sendable, Hashable, Codable {
    case inbox = 0
    case sent = -1

    var name: String {
      switch self {
      case .inbox: "Inbox"
      case .sent: "Sent Items"
      }
    }
  }

  package var id: Int
  /// Whose folder holds this copy.
  package var ownerID: Int
  package var folder: Folder
  package var fromID: Int
  package var toID: Int
  package var title: String
  package var body: FakePostBody
  package var date: Date
  /// The post icon chosen when sending (nil: "No icon").
  package var iconID: Int?
  package var isRead: Bool
  package var wasRepliedTo: Bool
  package var wasForwarded: Bool

  package init(
    id: Int, ownerID: Int, folder: Folder, fromID: Int, toID: Int, title: String, body: FakePostBody, date: Date,
    iconID: Int? = nil, isRead: Bool = false, wasRepliedTo: Bool = false, wasForwarded: Bool = false
  ) {
    self.id = id
    self.ownerID = ownerID
    self.folder = folder
    self.fromID = fromID
    self.toID = toID
    self.title = title
    self.body = body
    self.date = date
    self.iconID = iconID
    self.isRead = isRead
    self.wasRepliedTo = wasRepliedTo
    self.wasForwarded = wasForwarded
  }
}
