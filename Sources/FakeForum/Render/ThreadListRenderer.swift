import ForumModel

/// One `tr.thread` of a thread list, already resolved to what it shows.
struct ThreadRowModel {
  var thread: FakeThread
  var authorName: String
  var lastPostAuthorName: String
  var lastPostDateText: String
  var star: StarColor?
  /// Index of the last post the viewer read; nil if never opened.
  var lastRead: Int?
}

/// An announcement row (`a.announcement`).
struct AnnouncementRowModel {
  var title: String
  var authorID: Int
  var authorName: String
  var dateText: String
  var iconURL: String
}

/// Rows of `table#forum`, shared by `forumdisplay.php` and `bookmarkthreads.php`.
enum ThreadListRenderer {
  static func table(announcements: [AnnouncementRowModel], rows: [ThreadRowModel], sortBase: String) -> String {
    var html = """
      <table id="forum" summary="Threads" class="threadlist ">
      \t<caption>Threads</caption>
      \t<thead>
      \t<tr>
      \t\t<th class="star">&nbsp;</th>
      \t\t<th class="icon">Icon</th>
      \t\t<th class="title">Title (Pages)</th>
      \t\t<th class="author">Author</th>
      \t\t<th class="replies"><abbr title="Replies">Re</abbr></th>
      \t\t<th class="views">Views</th>
      \t\t<th class="rate">Rating</th>
      \t\t<th class="lastpost"><a href="\(HTMLText.escape(sortBase))&amp;sortorder=desc&amp;sortfield=lastpost">Killed By</a> </th>
      \t</tr>
      \t</thead>
      \t<tbody>

      """
    for announcement in announcements { html += announcementRow(announcement) }
    for row in rows { html += threadRow(row) }
    html += "\t</tbody>\n</table>\n"
    return html
  }

  static func announcementRow(_ row: AnnouncementRowModel) -> String {
    """
    \t\t<tr class="thread">
    \t\t\t<td class="star"></td>
    \t\t\t<td class="icon"><img src="\(HTMLText.escape(row.iconURL))" alt=""></td>
    \t\t\t<td class="title"><a href="announcement.php?forumid=1" class="announcement">\(HTMLText.escape(row.title))</a></td>
    \t\t\t<td class="author"><a href="member.php?action=getinfo&amp;userid=\(row.authorID)">\(HTMLText.escape(row.authorName))</a></td>
    \t\t\t<td class="replies">-</td>
    \t\t\t<td class="views">-</td>
    \t\t\t<td class="rating">-</td>
    \t\t\t<td class="lastpost"><div class="date">\(row.dateText)</div></td>
    \t\t</tr>

    """
  }

  static func threadRow(_ row: ThreadRowModel) -> String {
    let t = row.thread
    let starClass = row.star.map { "star bm\($0.rawValue)" } ?? "star"
    var lastSeen = ""
    if let lastRead = row.lastRead {
      lastSeen =
        "<div class=\"lastseen\"><a href=\"/showthread.php?action=resetseen&amp;threadid=\(t.id)\" class=\"x\" title=\"Mark as unread\">X</a>"
      let unread = t.postCount - lastRead
      if unread > 0 {
        lastSeen +=
          "<a title=\"Jump to last read post\" href=\"/showthread.php?threadid=\(t.id)&amp;goto=newpost\" class=\"count\"><b>\(unread)</b></a>"
      }
      lastSeen += "</div>"
    }
    let pages = (t.postCount + 39) / 40
    var titlePages = ""
    if pages > 1 {
      titlePages = "<div class=\"title_pages\">Pages: "
      for page in 1...min(pages, 7) {
        titlePages +=
          "<a class=\"pagenumber\" href=\"showthread.php?threadid=\(t.id)&amp;pagenumber=\(page)\">\(page)</a>"
      }
      if pages > 7 {
        titlePages +=
          "... <a class=\"pagenumber\" href=\"showthread.php?threadid=\(t.id)&amp;goto=lastpost\">Last</a>"
      }
      titlePages += "</div>"
    }
    var rating = "&nbsp;"
    if let count = t.ratingCount, let average = t.ratingAverage {
      let stars = max(1, min(5, Int(average.rounded())))
      rating =
        "<img src=\"http://fi.somethingawful.com/rate/default/\(stars)stars.gif\" alt=\"\" title=\"\(count) votes - \(formatAverage(average)) average\">"
    }
    return """
      <tr class="thread\(t.isClosed ? " closed" : "")" id="thread\(t.id)">
      \t<td class="\(starClass)"></td>
      \t<td class="icon"><a href="/forumdisplay.php?forumid=\(t.forumID)&amp;posticon=\(t.icon.id)"><img src="\(HTMLText.escape(t.icon.imageURL))#\(t.icon.id)" alt=""></a></td>
      \t<td class="title\(t.isSticky ? " title_sticky" : "")">
      \t\t<div class="title_inner">
      \t\t\t\(lastSeen)
      \t\t\t<div class="info">
      \t\t\t\t<a href="showthread.php?threadid=\(t.id)" class="thread_title">\(HTMLText.escape(t.title))</a>
      \t\t\t\t\(titlePages)
      \t\t\t</div>
      \t\t</div>
      \t</td>
      \t<td class="author"><a href="member.php?action=getinfo&amp;userid=\(t.authorID)">\(HTMLText.escape(row.authorName))</a></td>
      \t<td class="replies">\(t.replyCount)</td>
      \t<td class="views">\(t.postCount * 17 + 3)</td>
      \t<td class="rating">\(rating)</td>
      \t<td class="lastpost"><div class="date">\(row.lastPostDateText)</div><a class="author" href="showthread.php?goto=lastpost&amp;threadid=\(t.id)">\(HTMLText.escape(row.lastPostAuthorName))</a></td>
      </tr>
      """
  }

  /// "4.79": two decimals, as the forum prints averages.
  static func formatAverage(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
