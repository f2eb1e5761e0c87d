import ForumModel
import Foundation

extension ForumState {
  /// `GET newreply.php?action=newreply&threadid=T|postid=P` (the form) and `POST newreply.php` (the reply).
  func newReply(_ request: ForumRequest) -> ForumResponse {
    let user: FakeUser
    switch requireUser(request) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    if request.isPost && request.value("action") == "postreply" { return postReply(request, user: user) }
    var quote = ""
    let thread: FakeThread
    if let threadID = request.int("threadid"), let found = threads[threadID] {
      thread = found
    } else if let postID = request.int("postid"), let quoted = post(postID), let found = threads[quoted.threadID] {
      thread = found
      quote =
        "[quote=\"\(userName(quoted.authorID))\" post=\"\(quoted.id)\"]\n\(bbcodeSource(quoted.body))\n[/quote]\n\n"
    } else {
      return .html(ErrorPages.invalidThread())
    }
    if thread.isClosed { return .html(ErrorPages.threadClosed(threadID: thread.id)) }
    return .html(replyFormPage(thread: thread, user: user, message: quote, preview: nil))
  }

  func bbcodeSource(_ body: FakePostBody) -> String {
    switch body {
    case .bbcode(let text): return text
    case .html(let html):
      return html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
    }
  }

  private func replyFormPage(thread: FakeThread, user: FakeUser, message: String, preview: String?) -> String {
    let cookie = Self.randomHex(12)
    formCookies[cookie] = user.id
    var previewHTML = ""
    if let preview {
      previewHTML = """
        <table class="standard" id="preview"><tr><th>Preview</th></tr>
        <tr><td class="postbody">\(preview)</td></tr></table>

        """
    }
    let content = """
      <div id="searchboxes">
      <form id="amazon" action="https://somethingawful.com/shop/bounce.php" method="get">
      <div><a href="https://somethingawful.com/shop/bounce.php?l=amazon">Search Amazon.com:</a> <input class="text" type="text" name="keyword" size="20" value=""><input type="hidden" name="mode" value="blended"><input type="hidden" name="tag" value="somethingawfu-20"><input type="hidden" name="l" value="azsearch"> <input type="submit" name="Submit" value="Go"></div>
      </form>
      </div>
      \(breadcrumbsHTML(forumID: thread.forumID, thread: thread))
      \(previewHTML)
      <form enctype="multipart/form-data" action="newreply.php" name="vbform" method="POST" onsubmit="return validate(this)">
      <input type="hidden" name="action" value="postreply">
      <input type="hidden" name="threadid" value="\(thread.id)">
      <input type="hidden" name="formkey" value="\(formKey(user: user.id))">
      <input type="hidden" name="form_cookie" value="\(cookie)">

      <table class="standard" id="main_full">
      <thead><tr><th colspan="2">Post Reply</th></tr></thead>
      <tr>
      \t<td><b>Logged in user:</b></td>
      \t<td class="user_loggedin">\(HTMLText.escape(user.name)) <a href="account.php?action=logout&amp;ma=f26fad4c">logout</a></td>
      </tr>
      <tr class="altcolor2">
      \t<td><b>Message:</b></td>
      \t<td>
      \t\t<textarea name="message" rows="20" cols="83" tabindex="2">\(HTMLText.escape(message))</textarea><br>
      \t</td>
      </tr>
      <tr>
      \t<td><b>Options:</b></td>
      \t<td class="smalltext">
      \t\t<input type="checkbox" name="parseurl" value="yes" checked> <b>Automatically parse URLs:</b> automatically adds [url] and [/url] around internet addresses.<br>
      \t\t<input type="checkbox" name="bookmark" value="yes"\(bookmarks[user.id]?[thread.id] == nil ? "" : " checked")> <b>Bookmark thread:</b> adds thread to your <a href='/bookmarkthreads.php?action=view'>thread bookmarks</a>.<br>
      \t\t<input type="checkbox" name="disablesmilies" value="yes" > <b>Disable Smilies in This Post</b><br>
      \t\t<input type="checkbox" name="signature" value="yes"> <b>Show Signature:</b> include your profile signature.
      \t</td>
      </tr>
      <tr class="altcolor2">
      \t<td valign="top"><b>Attach file:</b><br><span class="smalltext">Maximum size: 1048576 bytes</span></td>
      \t<td valign="top" class="smalltext">
      \t\t<input type="hidden" name="MAX_FILE_SIZE" value="2097152">
      \t\t<input type="file" class="bginput" name="attachment"><br>
      \t\tValid file extensions: gif jpg jpeg png
      \t</td>
      </tr>
      </table>
      <br>
      <div class="postbuttons">
      \t<input type="submit" class="bginput" name="submit" value="Submit Reply" tabindex="3" accesskey="s">
      \t<input type="submit" class="bginput" name="preview" value="Preview Reply" tabindex="4" accesskey="p">
      </div>
      </form>
      """
    return template(
      title: "Post Reply - The Something Awful Forums", bodyClasses: "newreply forum_\(thread.forumID)", user: user,
      content: content)
  }

  private func postReply(_ request: ForumRequest, user: FakeUser) -> ForumResponse {
    guard let threadID = request.int("threadid"), let thread = threads[threadID] else {
      return .html(ErrorPages.invalidThread())
    }
    if thread.isClosed { return .html(ErrorPages.threadClosed(threadID: threadID)) }
    if faultSettings.probation { return .html(ErrorPages.onProbation(until: probationEndText)) }
    guard request.value("formkey") == formKey(user: user.id), let cookie = request.value("form_cookie"),
      formCookies[cookie] == user.id
    else { return .html(ErrorPages.badFormKey()) }
    let message = (request.value("message") ?? "").replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    guard !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return .html(
        ErrorPages.standardError(message: "The message you have entered is too short. Please lengthen your message."))
    }
    if request.value("preview") != nil && request.value("submit") == nil {
      return .html(replyFormPage(thread: thread, user: user, message: message, preview: BBCodeRenderer.html(message)))
    }
    formCookies[cookie] = nil
    guard let postID = try? addPost(thread: threadID, author: user.id, body: .bbcode(message)) else {
      return .html(ErrorPages.invalidThread())
    }
    if request.value("bookmark") == "yes", bookmarks[user.id]?[threadID] == nil {
      bookmarks[user.id, default: [:]][threadID] = .orange
    }
    if let count = threads[threadID]?.postCount { lastRead[user.id, default: [:]][threadID] = count }
    return .html(
      ErrorPages.redirect(
        message: "Thank you for posting! You will now be taken to your post.",
        linkPath: "showthread.php?goto=post&postid=\(postID)"))
  }

  /// `announcement.php?forumid=1`: every announcement in one `table.post`, a body row then a date row each.
  func announcementPage(_ request: ForumRequest) -> ForumResponse {
    let user: FakeUser
    switch requireUser(request) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    var rows = ""
    for announcement in announcements {
      let author = users[announcement.authorID]
      rows += """
        \t\t<tr valign="top">
        \t\t<td class="userinfo">
        \t\t\t<dl class="userinfo">
        \t\t\t\t<dt class="author">\(HTMLText.escape(author?.name ?? "Unknown User"))</dt>
        \t\t\t\t<dd class="registered">\(author.map { dates.registrationDate($0.regdate) } ?? "")</dd>
        \t\t\t\t<dd class="title">\(author?.customTitleHTML ?? "")</dd>
        \t\t\t</dl>
        \t\t</td>
        \t\t<td class="postbody">
        \t\t\t\(render(announcement.body))
        \t\t</td>
        \t</tr>
        \t<tr>
        \t\t<td class="postdate">\(dates.announcementDate(announcement.date))</td>
        \t\t<td class="postlinks"></td>
        \t</tr>

        """
    }
    let title = announcements.first?.title ?? ""
    let content = """
      <div class="breadcrumbs">
      \t<a href="index.php">The Something Awful Forums</a> &gt; Announcements &gt;
      </div>
      <br>
      <b>Current Announcements: \(announcements.count)</b>
      <br><br>
      <div class="threadbar top">
      \t<b style="margin-bottom:4px;">&raquo; \(HTMLText.escape(title))</b>
      </div>
      <div id="thread">
      \t<table class="post" id="main_full">
      \(rows)\t</table>
      </div>
      <div class="threadbar bottom">
      </div>
      """
    return .html(
      template(
        title: "Announcements - The Something Awful Forums", bodyClasses: "announcement", user: user, content: content))
  }
}
