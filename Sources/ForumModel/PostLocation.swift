/// Where a post lives: its thread and the page (at 40 posts a page) that shows it. What the client finds and the
/// engine links to, one type for both.
package struct PostLocation: Sendable, Hashable {
  package var threadID: String
  package var page: Int

  package init(threadID: String, page: Int) {
    self.threadID = threadID
    self.page = page
  }
}
