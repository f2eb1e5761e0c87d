/// Where a post lives: its thread, its id and its 1-based index in the thread. The page that holds it is computed
/// here and nowhere else, at the forum's page size of 40 (every request and every link says `perpage=40`).
package struct PostAddress: Sendable, Hashable, Codable {
  package var threadID: String
  package var postID: String
  /// 1-based position in the whole thread (`data-idx`).
  package var index: Int

  package init(threadID: String, postID: String, index: Int) {
    self.threadID = threadID
    self.postID = postID
    self.index = index
  }

  /// The 1-based page holding the post when pages hold `forumPageSize` posts.
  package var page: Int {
    Self.page(ofIndex: index)
  }

  /// The page holding the post at a 1-based `index` (indexes below 1 are on page 1). No index overflows it, not
  /// even `Int.min` (`index - 1` would).
  package static func page(ofIndex index: Int) -> Int {
    index <= 1 ? 1 : (index - 1) / forumPageSize + 1
  }
}
