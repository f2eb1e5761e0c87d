import Foundation

/// The one builder of links into the forum for people to open. Every link names `perpage=40`, so the page number
/// computed by `PostAddress` is the page the forum serves whatever the reader's own posts-per-page setting.
///
/// Links meant for people carry no `noseen=1`: that flag keeps the *bot's* account from moving its read markers
/// when it polls, but someone following a link in their own browser expects the forum to mark what they read.
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

  /// `showthread.php?threadid=T&perpage=40&pagenumber=N#postP`: the page that holds the post, scrolled to it.
  package func post(_ address: PostAddress) -> String {
    "\(base)showthread.php?threadid=\(address.threadID)&perpage=40&pagenumber=\(address.page)#post\(address.postID)"
  }

  /// `showthread.php?goto=post&postid=P`: a post whose place in its thread is not known (a quote's source, the
  /// answer to a reply); the forum redirects to the page that holds it.
  package func post(id postID: String) -> String {
    "\(base)showthread.php?goto=post&postid=\(postID)#post\(postID)"
  }

  /// A thread's first page.
  package func thread(_ threadID: String) -> String {
    "\(base)showthread.php?threadid=\(threadID)&perpage=40"
  }

  /// A given page of a thread.
  package func thread(_ threadID: String, page: Int) -> String {
    "\(base)showthread.php?threadid=\(threadID)&perpage=40&pagenumber=\(max(page, 1))"
  }

  /// A thread's newest post (`goto=lastpost`; the forum redirects to the last page).
  package func lastPost(inThread threadID: String) -> String {
    "\(base)showthread.php?threadid=\(threadID)&goto=lastpost"
  }

  package func forum(_ forumID: String) -> String {
    "\(base)forumdisplay.php?forumid=\(forumID)"
  }

  /// The announcements page; an anchor per announcement when the forum gave it one.
  package func announcements(forumID: String = "1", anchor: String? = nil) -> String {
    "\(base)announcement.php?forumid=\(forumID)" + (anchor.map { "#\($0)" } ?? "")
  }

  /// One private message (`private.php?action=show&privatemessageid=M`). Only the bot's own account can open it.
  package func privateMessage(id: String) -> String {
    "\(base)private.php?action=show&privatemessageid=\(id)"
  }

  /// The private-message inbox.
  package func privateMessages() -> String {
    "\(base)private.php"
  }
}
