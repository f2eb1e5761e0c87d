/// One post resolved to what `table.post` shows.
struct PostModel {
  var post: FakePost
  var author: FakeUser
  var isOriginalPoster: Bool
  var bodyHTML: String
  var dateText: String
  var registeredText: String
  var seen: Bool
  /// 1-based position on the page (`tr#pti<N>`); nil on the single-post page.
  var positionOnPage: Int?
  var showIndex: Bool
  var viewerIsAuthor: Bool
  var userFilterActive: Bool
}

/// `table.post`, as on showthread2.html (modern markup).
enum PostRenderer {
  static func table(_ model: PostModel) -> String {
    let post = model.post
    let author = model.author
    let parity = (model.positionOnPage ?? 1) % 2 == 1 ? 2 : 1
    let rowClass = model.seen ? "seen\(parity)" : "altcolor\(parity)"
    var authorClasses = "author"
    if model.isOriginalPoster { authorClasses += " op" }
    if author.isAdmin { authorClasses += " role-admin" }
    if author.isModerator { authorClasses += " role-mod" }
    let authorTitle = author.isAdmin ? "Administrator" : author.isModerator ? "Moderator" : ""
    let index = model.showIndex ? " data-idx=\"\(post.index)\"" : (model.positionOnPage == nil ? " data-idx=\"\"" : "")
    let pti = model.positionOnPage.map { "pti\($0)" } ?? "pti"
    let seenIcon = model.seen ? "posticon-seen.gif\" alt=\"\"" : "posticon-new.gif\" alt=\"*\""
    let lastSeenLink =
      model.showIndex
      ? "<a class=\"lastseen_icon\" href=\"/showthread.php?action=setseen&amp;threadid=\(post.threadID)&amp;index=\(post.index)\" title=\"Mark all replies as read to this point\"><img src=\"//fi.somethingawful.com/style/\(seenIcon) border=\"0\"></a>\n"
      : ""
    let userJump =
      model.userFilterActive
      ? "<a class=\"user_jump\" title=\"Remove user filter\" href=\"/showthread.php?threadid=\(post.threadID)\">?</a>"
      : "<a class=\"user_jump\" title=\"Show posts by this user\" href=\"/showthread.php?threadid=\(post.threadID)&amp;userid=\(author.id)\">?</a>"
    let editButton =
      model.viewerIsAuthor
      ? "\n            <li><a href=\"editpost.php?action=editpost&amp;postid=\(post.id)\"><img src=\"//fi.somethingawful.com/images/sa-edit.gif\" alt=\"Edit\" title=\"\"></a></li>"
      : ""
    let escapedName = author.name.addingPercentEncodingForQuery()
    return """
      <table class="post" id="post\(post.id)"\(index)>
      <tr  class="\(rowClass)" id="\(pti)">
          <td class="userinfo userid-\(author.id)">
              <dl class="userinfo">
                  <dt class="\(authorClasses)" title="\(authorTitle)">\(HTMLText.escape(author.name))</dt>
                  <dd class="registered">\(model.registeredText)</dd>
                  <dd class="title">
                      \(author.customTitleHTML)
                  </dd>
              </dl>
          </td>
          <td class="postbody">
              <!-- BeginContentMarker -->
              \(model.bodyHTML)
              <!-- EndContentMarker -->
              <p class="editedby">
          </td>
      </tr>
      <tr class="\(rowClass)">
          <td class="postdate">
              \(lastSeenLink)        <a href="#post\(post.id)" title="Link to this post">#</a>
              \(userJump)
              \(model.dateText)
          </td>
          <td class="postlinks">
              <ul class="profilelinks">
                  <li><a href="member.php?action=getinfo&amp;userid=\(author.id)">Profile</a></li>
                  <li><a href="private.php?action=newmessage&amp;userid=\(author.id)">Message</a></li>
                  <li><a href="query.php?action=posthistory&amp;userid=\(author.id)">Post History</a></li>
                  <li><a href="banlist.php?userid=\(author.id)">Rap Sheet</a></li>
              </ul>
              <ul class="postbuttons">
                  <li class="alertbutton"><a href="modalert.php?postid=\(post.id)&amp;username=\(escapedName)"><img src="//fi.somethingawful.com/images/button-report.gif" border="0" alt="Alert Moderators"></a></li>\(editButton)
                  <li><a href="newreply.php?action=newreply&amp;postid=\(post.id)"><img src="//fi.somethingawful.com/images/sa-quote.gif" alt="Quote" title=""></a></li>
              </ul>
          </td>
      </tr>
      </table>
      """
  }
}

extension String {
  /// `application/x-www-form-urlencoded` style, escaped for an HTML attribute.
  func addingPercentEncodingForQuery() -> String {
    var out = ""
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: " "): out += "+"
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return out
  }
}
