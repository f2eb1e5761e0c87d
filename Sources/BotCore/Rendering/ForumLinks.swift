import Foundation

/// Links into the forum, built the way the forum's own share links are (`perpage=40&noseen=1`, so following a
/// link from chat never moves the bot account's read markers and always lands on the right page).
package struct ForumLinks: Sendable, Hashable {
  package var baseURL: URL

  package init(baseURL: URL) {
    self.baseURL = baseURL
  }

  /// The base URL as a string that ends in `/`, so endpoints can be appended.
  private var base: String {
    let string = baseURL.absoluteString
    return string.hasSuffix("/") ? string : string + "/"
  }

  /// `showthread.php?threadid=T&perpage=40&noseen=1#post<P>`: the forum's share link for a post.
  package func postLink(threadID: String, postID: String, page: Int? = nil) -> String {
    let pageQuery = page.map { "&pagenumber=\($0)" } ?? ""
    return "\(base)showthread.php?threadid=\(threadID)&perpage=40&noseen=1\(pageQuery)#post\(postID)"
  }

  /// `showthread.php?goto=post&postid=P`: a post whose thread is not known (quotes); the forum redirects.
  package func postLink(postID: String) -> String {
    "\(base)showthread.php?goto=post&postid=\(postID)&noseen=1#post\(postID)"
  }

  /// A thread's first page, or a given page.
  package func threadLink(threadID: String, page: Int? = nil) -> String {
    let pageQuery = page.map { "&pagenumber=\($0)" } ?? ""
    return "\(base)showthread.php?threadid=\(threadID)&perpage=40&noseen=1\(pageQuery)"
  }

  package func forumLink(forumID: String) -> String {
    "\(base)forumdisplay.php?forumid=\(forumID)"
  }

  package var announcementsLink: String {
    "\(base)announcement.php?forumid=1"
  }
}
