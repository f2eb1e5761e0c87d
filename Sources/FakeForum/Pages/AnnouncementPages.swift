import Foundation

/// `announcement.php`: the forum-wide announcements.
struct AnnouncementPages: Sendable {
  let context: PageContext

  /// `announcement.php?forumid=1`: every announcement in one `table.post`, a body row then a date row each.
  func announcementPage(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    let dates = context.dates
    let announcements = state.announcements
    var rows = ""
    for announcement in announcements {
      let author = state.user(announcement.authorID)
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
        \t\t\t\(PageContext.html(announcement.body))
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
      context.template(
        title: "Announcements - The Something Awful Forums", bodyClasses: "announcement", user: user,
        content: content, state: state))
  }
}
