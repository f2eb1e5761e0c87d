import Foundation

/// `private.php` (docs/fake-forum.md, "Private messages"), modelled on the captured folder, message and new-message
/// pages: a folder's list, one message, the new-message form (also for replies and forwards), and sending.
struct PrivateMessagePages: Sendable {
  let context: PageContext

  /// The forum lists the last 50 messages of a folder unless asked for all of them.
  static let listLimit = 50

  /// Post icons offered on the new-message form (a few of the real list).
  static let icons: [(id: Int, path: String, alt: String)] = [
    (60, "icons-08/en.png", "e/n bullshit"), (64, "icons-08/question.png", "Question"),
    (65, "icons-08/attention.png", "ATTENTION!"), (92, "icons-08/sex.png", "Something about sex"),
  ]

  static func iconURL(_ id: Int) -> (url: String, alt: String)? {
    icons.first { $0.id == id }.map {
      ("http://fi.somethingawful.com/forums/posticons/\($0.path)", $0.alt)
    }
  }

  /// `private.php`: a folder (`folderid`, default the Inbox), `action=show` (one message, marked read),
  /// `action=newmessage` (the form, for a reply with `privatemessageid`), and `POST action=dosend` (send).
  func privateMessagesPage(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    switch request.value("action") {
    case "show": return showPrivateMessage(request, user: user, state: state)
    case "newmessage": return newPrivateMessageForm(request, user: user, state: state)
    case "dosend" where request.isPost: return send(request, user: user, state: state)
    case nil, "": return privateMessageFolder(request, user: user, state: state)
    default:
      return .html(ErrorPages.standardError(message: "Invalid action specified."))
    }
  }

  private func usercpNavigation() -> String {
    """
    \t<ul id="usercpnav">
    \t\t<li><a href="usercp.php">User CP Home</a></li>
    \t\t<li><a href="private.php">Private Messages</a></li>
    \t\t<li><a href="bookmarkthreads.php">Bookmarked Threads</a></li>
    \t\t<li><a href="member.php?action=editoptions">Edit Options</a></li>
    \t</ul>
    """
  }

  private func folderMenu(selected: FakePrivateMessage.Folder?) -> String {
    let options = [FakePrivateMessage.Folder.inbox, .sent].map { folder in
      "\t<option value=\"\(folder.rawValue)\"\(folder == selected ? " selected" : " ")>\(folder.name)</option>"
    }
    return """
      <form class="folder" action="private.php" method="post">
      \t<b>Jump to folder:</b>
      \t<select name="folderid" onchange="window.location=('private.php?folderid=' + this.options[this.selectedIndex].value + '&amp;daysprune=9999')">
      \(options.joined(separator: "\n"))
      \t</select><input type="submit" value="Go">
      </form>
      """
  }

  private func statusIcon(_ message: FakePrivateMessage) -> String {
    let name =
      !message.isRead ? "newpm" : message.wasForwarded ? "pmforwarded" : message.wasRepliedTo ? "pmreplied" : "pm"
    return "http://fi.somethingawful.com/images/\(name).gif"
  }

  /// `private.php[?folderid=N][&showall=1]`, as on private-list.html: newest first, `td.status` newpm/pm/pmreplied/
  /// pmforwarded, senders linked with `userid=0` (the real list does not give their ids).
  private func privateMessageFolder(
    _ request: ForumRequest, user: FakeUser, state: isolated ForumState
  ) -> ForumResponse {
    guard let folder = FakePrivateMessage.Folder(rawValue: request.int("folderid") ?? 0) else {
      return .html(ErrorPages.standardError(message: "Invalid folder specified."))
    }
    let all = state.privateMessages(user: user.id, folder: folder)
    let showAll = request.queryValue("showall") == "1"
    let listed = showAll ? all : Array(all.prefix(Self.listLimit))
    var rows = ""
    for message in listed {
      let other = folder == .sent ? message.toID : message.fromID
      let icon = message.iconID.flatMap(Self.iconURL).map {
        "<img src=\"\($0.url)\" alt=\"\(HTMLText.escape($0.alt))\" border=\"0\">"
      }
      rows += """
        \t\t<tr>
        \t\t\t<td class="status"><img src="\(statusIcon(message))" alt=""></td>
        \t\t\t<td class="icon">\(icon ?? "&nbsp;")</td>
        \t\t\t<td class="title"><a href="private.php?action=show&amp;privatemessageid=\(message.id)">\(HTMLText.escape(message.title))</a>
        \t\t\t</td>
        \t\t\t<td class="sender"><a href="member.php?action=getinfo&amp;userid=0">\(HTMLText.escape(context.userName(other, state: state)))</a></td>
        \t\t\t<td class="date">\(context.dates.privateMessageListDate(message.date))</td>
        \t\t\t<td class="check"><input type="checkbox" name="privatemessage[\(message.id)]" value="yes"></td>
        \t\t</tr>

        """
    }
    let warning =
      listed.count < all.count
      ? """
      <div class="pmwarn">Only the last \(Self.listLimit) messages in this folder are shown. <a href="private.php?folderid=\(folder.rawValue)&amp;showall=1">Show all \(all.count) messages</a></div>

      """ : ""
    let content = """
      <div class="breadcrumbs"><a href="index.php">The Something Awful Forums</a> &gt; <a href="usercp.php">User Control Panel For \(HTMLText.escape(user.name))</a> &gt; <a href="private.php">Private Messages</a> &gt; \(folder.name)</div>
      \(usercpNavigation())
      \(warning)\(folderMenu(selected: folder))
      <form class="action" action="private.php" method="post" name="form">
      \t<table class="standard full">
      \t\t<thead>
      \t\t<tr>
      \t\t\t<th class="title" colspan="3">Message Title</th>
      \t\t\t<th class="sender">\(folder == .sent ? "Recipient" : "Sender")</th>
      \t\t\t<th class="date">Date / Time Sent</th>
      \t\t\t<th class="check"><input name="allbox" type="checkbox" value="Check All" title="Select/Deselect All"></th>
      \t\t</tr>
      \t\t</thead>
      \t\t<tbody>
      \(rows)\t\t</tbody>
      \t\t<tfoot>
      \t\t\t<tr>
      \t\t\t\t<td align="right" colspan="7"><b>
      \t\t\t\t\t<input type="hidden" name="action" value="dostuff">
      \t\t\t\t\t<input type="hidden" name="thisfolder" value="\(folder.rawValue)">
      \t\t\t\t\tSelected messages: <select name="folderid"><option value="0">Inbox</option></select>
      \t\t\t\t\t<input type="submit" class="bginput" name="move" value="Move">
      \t\t\t\t\t<input type="submit" class="bginput" name="delete" value="Delete">
      \t\t\t\t\t</b>
      \t\t\t\t</td>
      \t\t\t</tr>
      \t\t</tfoot>
      \t</table>
      </form>
      <br>
      <div class="msgbuttons">
      \t<a href="private.php?action=newmessage"><img src="http://fi.somethingawful.com/images/pm/newmessage.gif" alt="Send a new private message"></a>
      </div>
      <br>
      <table>
      <tr>
      \t<td nowrap><img src="http://fi.somethingawful.com/images/newpm.gif" alt="Unread Message"></td>
      \t<td nowrap><b>Unread Message</b></td>
      \t<td nowrap><img src="http://fi.somethingawful.com/images/pm.gif" border=0 alt="Message"></td>
      \t<td nowrap><b>Message</b></td>
      \t<td nowrap><img src="http://fi.somethingawful.com/images/pmreplied.gif" alt="Replied to Message"></td>
      \t<td nowrap><b>Replied to Message</b></td>
      \t<td nowrap><img src="http://fi.somethingawful.com/images/pmforwarded.gif" alt="Forwarded Message"></td>
      \t<td nowrap><b>Forwarded Message</b></td>
      </tr>
      </table>
      """
    return .html(
      context.template(
        title: "Private Messages - The Something Awful Forums", bodyClasses: "privfolder", user: user,
        content: content, state: state))
  }

  /// A message of the viewer's own folders, or nil.
  private func ownPrivateMessage(
    _ request: ForumRequest, user: FakeUser, state: isolated ForumState
  ) -> FakePrivateMessage? {
    guard let id = request.int("privatemessageid"), let message = state.privateMessage(id), message.ownerID == user.id
    else { return nil }
    return message
  }

  private static func invalidPrivateMessage() -> ForumResponse {
    .html(
      ErrorPages.standardError(
        message: "Invalid private message specified. If you followed a valid link, please notify the webmaster."))
  }

  /// `private.php?action=show&privatemessageid=M`, as on private-one.html. Viewing marks the message read.
  private func showPrivateMessage(
    _ request: ForumRequest, user: FakeUser, state: isolated ForumState
  ) -> ForumResponse {
    guard let message = ownPrivateMessage(request, user: user, state: state) else {
      return Self.invalidPrivateMessage()
    }
    // Cannot fail: the message was just found.
    try? state.setPrivateMessageRead(message.id, true)
    let dates = context.dates
    let author = state.user(message.fromID)
    let authorID = message.fromID
    let content = """
      <div class="breadcrumbs"><span class="mainbodytextlarge"><b><a href="/">The Something Awful Forums</a> &gt; <a href="private.php?">Private Messages</a> &gt; <a href="private.php?folderid=\(message.folder.rawValue)"></a>\(HTMLText.escape(message.title))</b></span></div>
      \(usercpNavigation())
      <br>
      <form action="private.php" method="post">
      <input type="hidden" name="action" value="dodelete">
      <input type="hidden" name="privatemessageid" value="\(message.id)">
      <b>Delete?</b> <input type="checkbox" name="delete" value="yes" >
      <input type="submit" class="bginput" value="Delete">
      </form>
      \(folderMenu(selected: message.folder))
      <br>
      <div id="thread" class="pm">
      <table class="post" id="post">
      <tr>
      \t<td class="userinfo">
      \t\t<dl class="userinfo userid-\(authorID)">
      \t\t\t<dt class="author" title="">\(HTMLText.escape(author?.name ?? "Unknown User"))</dt>
      \t\t\t<dd class="registered">\(author.map { dates.registrationDate($0.regdate) } ?? "")</dd>
      \t\t\t<dd class="title">\(author?.customTitleHTML ?? "")</dd>
      \t\t</dl>
      \t</td>
      \t<td class="postbody">
      \t\t\(PageContext.html(message.body))
      \t\t<p class="attachment"></p>
      \t</td>
      <tr class="postbar">
      \t<td class="postdate"><img src="http://fi.somethingawful.com/images/posticon.gif" border="0" alt=""> \(dates.postDate(message.date))</td>
      \t<td class="postlinks">
      \t\t<ul class="profilelinks">
      \t\t\t<li><a href="member.php?action=getinfo&amp;userid=\(authorID)">Profile</a></li>
      \t\t\t<li><a href="private.php?action=newmessage&amp;userid=\(authorID)">Message</a></li>
      \t\t</ul>
      \t</td>
      </tr>
      </table>
      </div>
      <div class="buttons">
      \t<a href="private.php?action=newmessage&amp;privatemessageid=\(message.id)"><img src="http://fi.somethingawful.com/images/pm/reply.gif" alt="Reply to this message"></a>
      \t<a href="private.php?action=newmessage&amp;forward=true&amp;privatemessageid=\(message.id)"><img src="http://fi.somethingawful.com/images/pm/forward.gif" alt="Forward this message to another member"></a>
      \t<a href="private.php?action=newmessage"><img src="http://fi.somethingawful.com/images/pm/newmessage.gif" alt="Send a new private message"></a>
      </div>
      """
    return .html(
      context.template(
        title: "Private Messages - The Something Awful Forums", bodyClasses: "privmsg", user: user, content: content,
        state: state))
  }

  /// `private.php?action=newmessage[&privatemessageid=M[&forward=true]][&userid=U]`, as on private-new.html and
  /// private-reply.html: `form[name=vbform]` with hidden `prevmessageid`, `action=dosend`, `forward`; `touser`,
  /// `title`, radio `iconid` (0 checked), textarea `message` (a reply quotes the message), checkboxes `parseurl` and
  /// `savecopy` (checked) and `signature`, submit `submit` "Send Message".
  private func newPrivateMessageForm(
    _ request: ForumRequest, user: FakeUser, state: isolated ForumState
  ) -> ForumResponse {
    var previous: FakePrivateMessage?
    if request.value("privatemessageid").map({ !$0.isEmpty }) == true {
      guard let message = ownPrivateMessage(request, user: user, state: state) else {
        return Self.invalidPrivateMessage()
      }
      previous = message
    }
    let forward = request.value("forward") == "true"
    var recipient = ""
    var title = ""
    var message = ""
    if let previous {
      let senderName = context.userName(previous.fromID, state: state)
      recipient = forward ? "" : senderName
      let prefix = forward ? "Fw: " : "Re: "
      title = previous.title.hasPrefix(prefix) ? previous.title : prefix + previous.title
      message =
        "\n[quote]\n\(senderName) wrote on \(context.dates.postDate(previous.date)):\n\(PageContext.bbcodeSource(previous.body))\n[/quote]"
    } else if let userID = request.int("userid"), let target = state.user(userID) {
      recipient = target.name
    }
    // As on the captured pages: a reply's text starts on the line after the tag (parsers drop that first break).
    let textareaText = message.isEmpty ? "" : "\n" + HTMLText.escape(message)
    let iconChoices = Self.icons.enumerated().map { n, icon in
      """
      \t\t<div class="posticon">
      \t\t\t<input type="radio" name="iconid" value="\(icon.id)" >
      \t\t\t<img src="http://fi.somethingawful.com/forums/posticons/\(icon.path)" align="middle" alt="\(HTMLText.escape(icon.alt))" width="60" height="15" onclick="javascript:posticon_sel(\(n + 1));">
      \t\t</div>
      """
    }
    let content = """
      <div class="breadcrumbs"><span class="mainbodytextlarge"><b><a href="/">The Something Awful Forums</a> &gt; <a href="private.php?s=">Private Messages</a></b></span></div>
      \(usercpNavigation())
      <br>
      <form action="private.php" method="post" name="vbform" onSubmit="return validate(this)">
      <input type="hidden" name="prevmessageid" value="\(previous.map { String($0.id) } ?? "")">
      <input type="hidden" name="action" value="dosend">
      <input type="hidden" name="forward" value="\(forward ? "true" : "")">
      <table class="standard" id="main_full">
      <thead><tr><th colspan="2">New Private Message</th></tr></thead>
      <tr>
      \t<td><b>Recipient:</b></td>
      \t<td><input type="text" class="bginput" name="touser" value="\(HTMLText.escape(recipient))" size="35" maxlength="35" tabindex="1">&nbsp;&nbsp;
      </td>
      </tr>
      <tr>
      \t<td><b>Subject:</b></td>
      \t<td><input type="text" class="bginput" name="title" value="\(HTMLText.escape(title))" size="40" maxlength="85" tabindex="2"></td>
      </tr>
      <tr>
      \t<td valign="top">
      \t\t<div class="mainbodytext"><b>Post Icons:</b></div>
      \t\t<div class="mainbodytextsmall"><input type="radio" name="iconid" value="0" CHECKED>&nbsp;No icon</div>
      \t</td>
      \t<td>
      \(iconChoices.joined(separator: "\n"))
      \t</td>
      </tr>
      <tr>
      \t<td><b>Your Message:</b></td>
      \t<td>
      \t\t<textarea name="message" rows="20" cols="83" tabindex="2">\(textareaText)</textarea><br>
      \t</td>
      </tr>
      <tr>
      \t<td><b>Options</b></td>
      \t<td class="smalltext">
      \t\t<input type="checkbox" name="parseurl" value="yes" checked> <b>Automatically parse URLs:</b> automatically adds [url] and [/url] around internet addresses.<br>
      \t\t<input type="checkbox" name="signature" value="yes" > <b>Show Signature:</b> include your profile signature.<br>
      \t\t<input type="checkbox" name="savecopy" value="yes" checked> <b>Save a copy:</b> Also save a copy in the 'Sent Items' folder.
      \t</td>
      </tr>
      </table>
      <br>
      <div class="postbuttons">
      \t<input type="submit" class="bginput" name="submit" value="Send Message" tabindex="4" accesskey="s">
      </div>
      </form>
      """
    return .html(
      context.template(
        title: "Private Messages - The Something Awful Forums", bodyClasses: "priv_sendprivmsg", user: user,
        content: content, state: state))
  }

  /// `POST private.php` `action=dosend`: `touser`, `title`, `message`, `iconid`, `savecopy=yes`, and for a reply
  /// `prevmessageid` (+ `forward=true` for a forward). Answers the `body.standardredirect` "Thank you for sending
  /// your private message" page, or a standard error naming what is wrong.
  private func send(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    if state.faultSettings.probation {
      return .html(ErrorPages.onProbation(until: context.probationEndText(state: state)))
    }
    let recipientName = (request.value("touser") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let title = (request.value("title") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let message = (request.value("message") ?? "").replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    guard !title.isEmpty, !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return .html(
        ErrorPages.standardError(message: "Please complete both the subject and message fields. Go back and try again.")
      )
    }
    guard let recipient = state.userID(named: recipientName) else {
      return .html(
        ErrorPages.standardError(
          message: "The user you specified (\(recipientName)) does not exist. Please go back and correct this."))
    }
    let iconID = request.int("iconid").flatMap { $0 == 0 ? nil : $0 }
    guard
      (try? state.sendPrivateMessage(
        from: user.id, to: recipient, title: title, body: .bbcode(message), iconID: iconID,
        saveCopy: request.value("savecopy") == "yes")) != nil
    else { return .html(ErrorPages.standardError(message: "Your message could not be sent.")) }
    if let previousID = request.int("prevmessageid"), let previous = state.privateMessage(previousID),
      previous.ownerID == user.id
    {
      // Cannot fail: the message was just found.
      try? state.markPrivateMessageAnswered(previousID, forwarded: request.value("forward") == "true")
    }
    return .html(
      ErrorPages.redirect(
        message: "Thank you for sending your private message. You will now be taken to your private messages.",
        linkPath: "private.php"))
  }
}
