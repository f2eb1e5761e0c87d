/// The frame every forum page shares: head, navigation, `div#content`, footer. Pages fill in the content.
struct PageTemplate {
  var title: String
  /// Classes of `body` (`showthread`, `forumdisplay`, `standarderror`, …).
  var bodyClasses: String
  /// Extra attributes of `body`, e.g. ` data-forum="46" data-thread="3507451"`.
  var bodyAttributes: String = ""
  var userName: String?
  var userID: Int?
  /// The probation fault: a banner at the top of the content.
  var probation: Bool = false
  /// The end the banner names ("Mar  2, 2025 10:00"), as the real banner does.
  var probationEnd: String?
  /// Modern pages carry `div#loggedinusername`.
  var modern: Bool = true
  var content: String

  func render() -> String {
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      \t<title>\(HTMLText.escape(title))</title>
      \t<meta http-equiv="X-UA-Compatible" content="IE=edge">
      \t<link rel="stylesheet" type="text/css" href="/css/main.css?37">
      \t<link rel="stylesheet" type="text/css" href="/css/bbcode.css?1456974412">
      </head>
      <body id="something_awful" class="\(bodyClasses)"\(bodyAttributes)>
      <div id="top"></div>

      """
    if modern, let userName {
      html += "<div style=\"display:none;\" id=\"loggedinusername\">\(HTMLText.escape(userName))</div>\n"
    }
    html += """
      <div id="container">
      \t<ul id="navigation" class="navigation">
      <li class="first"><a href="/index.php">SA Forums</a></li>
      <li>- <a href="/usercp.php">User Control Panel</a></li>
      <li>- <a href="/private.php">Private Messages</a></li>
      <li>- <a href="/bookmarkthreads.php">Bookmarks</a></li>
      <li>- <a href="/banlist.php">Leper's Colony</a></li>
      \(userName == nil
        ? "<li>- <a href=\"/account.php?action=loginform#form\">*** LOG IN ***</a></li>"
        : "<li>- <a href=\"/account.php?action=logout&amp;ma=f26fad4c\">Log Out</a></li>")
      </ul>

      \t<div id="content">

      """
    if probation {
      html += """
        <div id="probation_warn">
        <h4>YOU ARE A HORRIBLE MONSTER ON PROBATION!</h4>
        <p>\(probationEnd.map { "You have been put on probation until \($0). " } ?? "")You cannot post while on probation. <a href="/banlist.php?userid=\(userID ?? 0)">Click here to see why.</a></p>
        </div>

        """
    }
    html += content
    html += """

      </div><!-- #content -->
      \t<div id="copyright">
      \t\tPowered by: vBulletin Version 2.2.9 (<a href="/CHANGES">SAVB-2.0.15</a>)<br>
      \t\tCopyright &copy;2000, 2001, Jelsoft Enterprises Limited.<br>
      \t\tCopyright &copy;2024, Something Awful LLC (emulated by FakeForum)<br>
      \t</div>
      </div><!-- #container -->
      </body>
      </html>

      """
    return html
  }
}
