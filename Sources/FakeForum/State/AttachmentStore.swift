/// The forum's own attachments (`attachment.php?attachmentid=N`), by number: the bytes as they were uploaded and the
/// type they are served as. The forum stores what posters upload; tests store hostile ones too (a page, a picture
/// whose header claims absurd dimensions, bytes that are no picture at all).
struct AttachmentStore: Sendable {
  struct Attachment: Sendable, Hashable {
    var bytes: [UInt8]
    var contentType: String
  }

  private(set) var byID: [Int: Attachment] = [:]
  /// The numbers start high, as the forum's do, so a test never mistakes one for a post or thread number.
  private var nextID = 70_001

  func attachment(_ id: Int) -> Attachment? { byID[id] }

  /// Stores `attachment` under `id` (replacing one there) or the next free number, which it returns.
  mutating func add(_ attachment: Attachment, id: Int? = nil) -> Int {
    let chosen = id ?? nextID
    byID[chosen] = attachment
    nextID = max(nextID, chosen + 1)
    return chosen
  }

  mutating func remove(_ id: Int) -> Bool { byID.removeValue(forKey: id) != nil }
}
