import Foundation

/// `newreply.php`: the reply form (optionally quoting a post), its preview, and posting the reply.
struct ReplyPages: Sendable {
  let context: PageContext

  /// `GET newreply.php?action=newreply&threadid=T|postid=P` (the form) and `POST newreply.php` (the reply).
  func newReply(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    if request.isPost && request.value("action") == "postreply" { return postReply(request, user: user, state: state) }
    var quote = ""
    let thread: FakeThread
    if let threadID = request.int("threadid"), let found = state.thread(threadID) {
      thread = found
    } else if request.value("postid") != nil {
      // The Quote button: the form for the post's thread, the post quoted in the message box.
      guard let postID = request.int("postid"), let quoted = state.post(postID),
        let found = state.thread(quoted.threadID)
      else { return .html(ErrorPages.invalidPost()) }
      thread = found
      quote = PostQuote.bbcode(
        author: context.userName(quoted.authorID, state: state), postID: quoted.id, body: quoted.body)
    } else {
      return .html(ErrorPages.invalidThread())
    }
    if thread.isClosed { return .html(ErrorPages.threadClosed(threadID: thread.id)) }
    return .html(replyFormPage(thread: thread, user: user, message: quote, preview: nil, state: state))
  }

  /// The per-user form key (the real one looks per-user: identical across forms).
  static func formKey(user: Int) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "formkey-\(user)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(format: "%016llx%016llx", hash, hash ^ 0x5bd1_e995_5bd1_e995)
  }

  /// The form, with a fresh form cookie each time it is shown (a preview shows it again).
  private func replyFormPage(
    thread: FakeThread, user: FakeUser, message: String, preview: String?, state: isolated ForumState
  ) -> String {
    let cookie = state.issueFormCookie(user: user.id)
    var previewHTML = ""
    if let preview {
      previewHTML = """
        <table class="standard" id="preview"><tr><th>Preview</th></tr>
        <tr><td class="postbody">\(preview)</td></tr></table>

        """
    }
    let bookmarked = state.bookmarks.star(user: user.id, thread: thread.id) != nil
    let content = """
      <div id="searchboxes">
      <form id="amazon" action="https://somethingawful.com/shop/bounce.php" method="get">
      <div><a href="https://somethingawful.com/shop/bounce.php?l=amazon">Search Amazon.com:</a> <input class="text" type="text" name="keyword" size="20" value=""><input type="hidden" name="mode" value="blended"><input type="hidden" name="tag" value="somethingawfu-20"><input type="hidden" name="l" value="azsearch"> <input type="submit" name="Submit" value="Go"></div>
      </form>
      </div>
      \(context.breadcrumbsHTML(forumID: thread.forumID, thread: thread, state: state))
      \(previewHTML)
      <form enctype="multipart/form-data" action="newreply.php" name="vbform" method="POST" onsubmit="return validate(this)">
      <input type="hidden" name="action" value="postreply">
      <input type="hidden" name="threadid" value="\(thread.id)">
      <input type="hidden" name="formkey" value="\(Self.formKey(user: user.id))">
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
      \t\t<input type="checkbox" name="bookmark" value="yes"\(bookmarked ? " checked" : "")> <b>Bookmark thread:</b> adds thread to your <a href='/bookmarkthreads.php?action=view'>thread bookmarks</a>.<br>
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
    return context.template(
      title: "Post Reply - The Something Awful Forums", bodyClasses: "newreply forum_\(thread.forumID)", user: user,
      content: content, state: state)
  }

  private func postReply(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let threadID = request.int("threadid"), let thread = state.thread(threadID) else {
      return .html(ErrorPages.invalidThread())
    }
    if thread.isClosed { return .html(ErrorPages.threadClosed(threadID: threadID)) }
    if state.faultSettings.probation {
      return .html(ErrorPages.onProbation(until: context.probationEndText(state: state)))
    }
    guard request.value("formkey") == Self.formKey(user: user.id), let cookie = request.value("form_cookie"),
      state.sessions.formCookieOwner(cookie) == user.id
    else { return .html(ErrorPages.badFormKey()) }
    let message = (request.value("message") ?? "").replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    guard !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return .html(
        ErrorPages.standardError(message: "The message you have entered is too short. Please lengthen your message."))
    }
    if request.value("preview") != nil && request.value("submit") == nil {
      return .html(
        replyFormPage(
          thread: thread, user: user, message: message, preview: BBCodeRenderer.html(message), state: state))
    }
    // Checked on submitting only (a preview posts nothing); the form cookie stays good for the retry.
    if let wait = state.floodWait(user: user.id) {
      return .html(ErrorPages.floodCheck(limit: wait.limit, remaining: wait.remaining))
    }
    state.useFormCookie(cookie)
    guard
      let postID = try? state.postReply(
        thread: threadID, author: user.id, message: message, bookmark: request.value("bookmark") == "yes")
    else { return .html(ErrorPages.invalidThread()) }
    return .html(
      ErrorPages.redirect(
        message: "Thank you for posting! You will now be taken to your post.",
        linkPath: "showthread.php?goto=post&postid=\(postID)"))
  }
}
