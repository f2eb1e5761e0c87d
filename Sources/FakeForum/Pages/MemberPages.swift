import Foundation

/// `member.php?action=getinfo`: a user's profile, shaped like the captured `profile.html` (`dl.userinfo` with
/// `dt.author`, the private-message link and the buddy and ignore forms holding `input[name=userid]`). The user is
/// named by `username` (which wins, as in vBulletin 2) or `userid`; neither is the viewer's own profile. A user the
/// forum does not know is vBulletin's standard error "Invalid user specified."
struct MemberPages: Sendable {
  let context: PageContext

  func member(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let viewer: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): viewer = allowed
    }
    guard (request.value("action") ?? "getinfo") == "getinfo" else {
      return .html(ErrorPages.standardError(message: "Invalid action specified."))
    }
    let profiled: FakeUser?
    // The query arrives as windows-1252 text with `&#N;` for what it cannot hold, as the forum's clients send it.
    if let name = request.value("username").map(Windows1252.decodeNumericEntities), !name.isEmpty {
      profiled = state.userID(named: name).flatMap { state.user($0) }
    } else if let raw = request.value("userid"), !raw.isEmpty {
      profiled = raw.count <= 18 ? Int(raw).flatMap { state.user($0) } : nil
    } else {
      profiled = viewer
    }
    guard let user = profiled else { return .html(ErrorPages.invalidUser()) }
    let name = HTMLText.escape(user.name)
    let posts = state.threads.storedPostStats(author: user.id).count
    let content = """
      <table class="standard" style="width:800px;margin:0 auto;">
      <tr>
      <th colspan="2">
      \tUser Profile <span class="smalltext">(<a style="color:#fff!important;" href="search.php?action=do_search_posthistory&amp;userid=\(user.id)">find posts by user</a>)</span>
      </th>
      </tr>
      <tr>
      \t<td id="thread">
      \t\t<dl class="userinfo">
      \t\t\t<dt class="author">\(name)</dt>
      \t\t\t<dd class="registered">\(context.dates.registrationDate(user.regdate))</dd>
      \t\t\t<dd class="title">\(user.customTitleHTML)</dd>
      \t\t</dl>
      \t</td>
      \t<td class="info">
      \t\t<h3>About \(name)</h3>
      \t\t<p>There have been <b>\(posts)</b> posts made by <i>\(name)</i> since registering on <b>\(context.dates.registrationDate(user.regdate))</b>.</p>
      \t\t<p>This moron has not provided any additional info.</p>
      \t\t<h3>Contact Information</h3>
      \t\t<dl class="contacts">
      \t\t\t<dt class="pm">Message</dt><dd><a href="private.php?action=newmessage&amp;userid=\(user.id)">Send a private message</a>&nbsp;</dd>
      \t\t</dl>
      \t</td>
      </tr>
      <tr>
      \t<td style="text-align:center" colspan="2">
      \t\t<form method="POST" action="/member2.php">
      \t\t<input type="hidden" name="action" value="addlist">
      \t\t<input type="hidden" name="userlist" value="buddy">
      \t\t<input type="hidden" name="userid" value="\(user.id)">
      \t\t<input type="submit" value="Add user to your Buddy List">
      \t\t</form>
      \t\t<form method="POST" action="/member2.php">
      \t\t<input type="hidden" name="action" value="addlist">
      \t\t<input type="hidden" name="userlist" value="ignore">
      \t\t<input type="hidden" name="userid" value="\(user.id)">
      \t\t<input type="submit" value="Add user to your Ignore List">
      \t\t</form>
      \t</td>
      </tr>
      </table>
      """
    return .html(
      context.template(
        title: "The Something Awful Forums - User Profile", bodyClasses: "getinfo", user: viewer, content: content,
        state: state))
  }
}
