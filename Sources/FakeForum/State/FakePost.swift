import Foundation

/// What a post says: BBCode as typed in the reply box (rendered like the forum does), or ready-made HTML.
package enum FakePostBody: Sendable, Hashable, Codable {
  case bbcode(String)
  case html(String)
}

package struct FakePost: Sendable, Hashable, Codable {
  package var id: Int
  package var threadID: Int
  package var authorID: Int
  package var date: Date
  package var body: FakePostBody
  /// 1-based index in the thread (`data-idx`).
  package var index: Int

  package init(id: Int, threadID: Int, authorID: Int, date: Date, body: FakePostBody, index: Int) {
    self.id = id
    self.threadID = threadID
    self.authorID = authorID
    self.date = date
    self.body = body
    self.index = index
  }
}
