import Foundation

/// Private messages by id, every user's folders together. Each copy of a message (the recipient's, the sender's
/// saved one) has an id of its own, as on the forum.
struct PrivateMessageStore {
  private var messagesByID: [Int: FakePrivateMessage] = [:]
  private var nextID = 4_700_000

  /// Every message, oldest first (the admin API's listing).
  var all: [FakePrivateMessage] { messagesByID.values.sorted { $0.id < $1.id } }

  func message(_ id: Int) -> FakePrivateMessage? { messagesByID[id] }

  /// A user's messages in one folder (every folder when nil), newest first.
  func messages(owner: Int, folder: FakePrivateMessage.Folder?) -> [FakePrivateMessage] {
    messagesByID.values.filter { $0.ownerID == owner && (folder == nil || $0.folder == folder) }.sorted {
      $0.date != $1.date ? $0.date > $1.date : $0.id > $1.id
    }
  }

  /// The recipient's unread copy in their Inbox and, with `saveCopy`, the sender's read copy in Sent Items. The
  /// caller checks both users. Returns the recipient's copy's id.
  mutating func deliver(
    from sender: Int, to recipient: Int, title: String, body: FakePostBody, date: Date, iconID: Int?, saveCopy: Bool
  ) -> Int {
    let id = nextID
    nextID += 1
    messagesByID[id] = FakePrivateMessage(
      id: id, ownerID: recipient, folder: .inbox, fromID: sender, toID: recipient, title: title, body: body,
      date: date, iconID: iconID)
    if saveCopy {
      let copyID = nextID
      nextID += 1
      messagesByID[copyID] = FakePrivateMessage(
        id: copyID, ownerID: sender, folder: .sent, fromID: sender, toID: recipient, title: title, body: body,
        date: date, iconID: iconID, isRead: true)
    }
    return id
  }

  mutating func update(_ id: Int, _ change: (inout FakePrivateMessage) -> Void) throws {
    guard var message = messagesByID[id] else { throw FakeForumError.unknownPrivateMessage(id) }
    change(&message)
    messagesByID[id] = message
  }
}
