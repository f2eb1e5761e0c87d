import ForumModel
import Foundation

/// `banlist.php`: the Leper's Colony, every punishment newest first, 50 a page, or one user's rap sheet
/// (`userid=U`). Shaped like the captured `banlist.html`: a `table.standard` of six-cell rows under a header row,
/// page navigation above and below. Everything is escaped except the reason, which the forum serves as the moderator
/// wrote it (so tests can post markup there and see what a client makes of it).
struct LepersColonyPages: Sendable {
  let context: PageContext

  /// The real page lists 50 entries a page ("Displaying jerks 1 to 50 of 118440").
  static let perPage = 50

  /// `GET banlist.php[?pagenumber=N][&userid=U]`. A `userid` that is not a number is nobody: an empty list. Pages
  /// past the end have no rows.
  func banlist(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let viewer: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): viewer = allowed
    }
    let userFilter = request.value("userid").flatMap { $0.isEmpty ? nil : $0 }
    let entries: [FakePunishment]
    var baseURL = "banlist.php?actfilt=-1"
    if let userFilter {
      // Up to 18 digits: any real id, and no number `Int` cannot hold.
      if userFilter.count <= 18, let id = Int(userFilter), id > 0 {
        entries = state.lepersColony(user: id)
        baseURL += "&userid=\(id)"
      } else {
        entries = []
      }
    } else {
      entries = state.lepersColony()
    }
    let perPage = Self.perPage
    let totalPages = max(1, (entries.count + perPage - 1) / perPage)
    // Within `1...Clamp.forumNumber`, so the offset below cannot overflow.
    let page = Clamp.forumNumber(request.int("pagenumber") ?? 1, atLeast: 1)
    let offset = (page - 1) * perPage
    let shown = offset < entries.count ? Array(entries[offset..<min(entries.count, offset + perPage)]) : []
    let rows = shown.map { row($0, state: state) }.joined(separator: "\n")
    let displaying =
      shown.isEmpty
      ? "Displaying jerks 0 to 0 of \(entries.count)"
      : "Displaying jerks \(offset + 1) to \(offset + shown.count) of \(entries.count)"
    let current = min(page, totalPages)
    func nav(_ extraClass: String) -> String {
      PageNavRenderer(
        style: context.pageNav, current: current, total: totalPages, baseURL: baseURL, perPage: perPage,
        extraClass: extraClass
      ).render()
    }
    let content = """
      <div class="standard" id="main_full">
      \t<h2>Leper's Colony</h2>
      \t<div class="inner">
      \t\t<table>
      \t\t\t<tr>
      \t\t\t<td><img src="http://images.somethingawful.com/images/leperscolony.gif"></td>
      \t\t\t<td valign="top"><div style="padding-left:8px;">The following is a list of banned users and the reason they were banned. Click on the ban type in the "Type" column to view the post the user was banned for.</div></td>
      \t\t\t</tr>
      \t\t</table>
      \t\t<hr>
      \t\t<b>Change Display Options</b><br>
      \t\t<div class="smalltext">
      \t\t\t<form action="banlist.php#list" method="GET">
      \t\t\t<b>Type:</b> <select name="actfilt"><option value="-1">Any</option><option value="2">Probations</option><option value="-2">ALL bans</option><option value="0">Regular bans</option><option value="7">Autobans</option><option value="9">Permabans</option></select>
      \t\t\t<input type="submit" value="Submit" class="s_button">
      \t\t\t</form>
      \t\t</div>
      \t\t<div class="mqnav">
      \t\t\t<div style="float:left">\(displaying)</div>
      \t\t\t\(nav(""))
      \t\t</div>
      \t\t<a name="list"></a>
      \t\t<table class="standard full" style="clear:left;">
      \t\t\t<tr><th>Type</th><th nowrap>Date</th><th>Horrible Jerk</th><th>Punishment Reason</th><th nowrap>Requested By</th><th nowrap>Approved By</th></tr>
      \(rows)
      \t\t</table>
      \t\t<div class="mqnav">
      \t\t\t<div style="float:left">\(displaying)</div>
      \t\t\t\(nav("bottom"))
      \t\t</div>
      \t</div>
      </div>
      """
    return .html(
      context.template(
        title: "The Something Awful Forums - Leper's Colony", bodyClasses: "banlist", user: viewer, content: content,
        state: state))
  }

  /// One six-cell row, as the captured page writes it.
  private func row(_ entry: FakePunishment, state: isolated ForumState) -> String {
    let type =
      entry.postID.map {
        "<a href=\"/showthread.php?goto=post&amp;postid=\($0)\" target=\"new\">\(entry.kind.label)</a>"
      } ?? entry.kind.label
    let subject = userLink(entry.subjectID, state: state, nowrap: false)
    let approver = entry.approverID.map { userLink($0, state: state, nowrap: true) } ?? ""
    return
      "\t\t\t\t<tr><td align=\"left\"><b>\(type)</b></td><td nowrap>\(context.dates.lepersColonyDate(entry.date))</td>"
      + "<td nowrap><b>\(subject)</b></td><td>\(entry.reasonHTML)</td>"
      + "<td nowrap>\(userLink(entry.requesterID, state: state, nowrap: true))</td><td nowrap>\(approver)</td></tr>"
  }

  private func userLink(_ id: Int, state: isolated ForumState, nowrap: Bool) -> String {
    "<a href=\"/member.php?s=&amp;action=getinfo&amp;userid=\(id)\" target=\"_blank\"\(nowrap ? " nowrap" : "")>"
      + "\(HTMLText.escape(context.userName(id, state: state)))</a>"
  }
}
