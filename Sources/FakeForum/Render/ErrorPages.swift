/// The forum's error and redirect pages, modelled on the captured ones.
enum ErrorPages {
  /// `body.standarderror`: title in `div.standard h2`, message in the first nodes of `div.inner`.
  static func standardError(title: String = "Special Message From Senor Lowtax", message: String, extra: String = "")
    -> String
  {
    PageTemplate(
      title: "The Something Awful Forums", bodyClasses: "standarderror", modern: false,
      content: """
        <center>
        <div class="standard">
        <h2>\(HTMLText.escape(title))</h2>
        <div class="inner">
        <b>\(HTMLText.escape(message))</b>
        \(extra)
        </div>
        </div>
        </center>
        """
    ).render()
  }

  /// What a logged-out client gets for any page that needs an account.
  static func mustRegister() -> String {
    standardError(
      message: "Sorry, you must be a registered forums member to view this page.",
      extra: """
        <b>If you are already a member, <a href="/account.php?action=loginform&amp;next=%2Fmember.php%3Faction%3Dgetinfo">login here</a>.</b>
        <br>
        <br>
        To register your very own account, see our <a href="https://secure.somethingawful.com/products/register.php">registration
        page</a><br>
        """)
  }

  static func invalidThread() -> String {
    standardError(message: "Specified thread was not found in the live forums.")
  }

  static func invalidPost() -> String {
    standardError(message: "Invalid post specified. If you followed a valid link, please notify the webmaster.")
  }

  /// An attachment number the forum does not hold (never uploaded, or deleted with its post's edit): vBulletin's
  /// sentence.
  static func invalidAttachment() -> String {
    standardError(message: "Invalid Attachment specified. If you followed a valid link, please notify the webmaster.")
  }

  static func invalidForum() -> String {
    standardError(message: "Invalid forum specified. If you followed a valid link, please notify the webmaster.")
  }

  /// `member.php` for a user name or id the forum does not know (vBulletin 2's `verifyid` sentence).
  static func invalidUser() -> String {
    standardError(message: "Invalid user specified. If you followed a valid link, please notify the webmaster.")
  }

  static func badLogin() -> String {
    standardError(
      message: "BAD PASSWORD! Double-check your username and password and try again.",
      extra: "<a href=\"/account.php?action=lostpw\">Forgot your password?</a>")
  }

  /// Posting (a reply, a private message) while the probation fault is on.
  static func onProbation(until end: String?) -> String {
    standardError(
      message: "You are on probation and cannot post\(end.map { " until \($0)" } ?? "")."
        + " Check the Leper's Colony to find out why.")
  }

  /// A reply within the flood check's interval of the account's last one (vBulletin's sentence).
  static func floodCheck(limit: Int, remaining: Int) -> String {
    standardError(
      message:
        "This forum requires that you wait \(limit) seconds between posts. Please try again in \(remaining) seconds.")
  }

  static func badFormKey() -> String {
    standardError(message: "Sorry, your session expired or the form is invalid. Please go back and try again.")
  }

  /// `body.standardredirect`: "Sorry! This thread is closed!" and friends.
  static func redirect(message: String, linkPath: String) -> String {
    PageTemplate(
      title: "The Something Awful Forums", bodyClasses: "standardredirect", modern: false,
      content: """
        <center>
        <div class="standard" id="main_wide">
        <h2>Redirecting...</h2>
        <div class="inner">
        \(HTMLText.escape(message))<br>
        <br>
        <div style="text-align:center;">
        <a href="\(HTMLText.escape(linkPath))">Click here if you do not want to wait any longer</a><br>
        <a href="\(HTMLText.escape(linkPath))">(or if your browser does not automatically forward you)</a>
        </div>
        </div>
        </div>
        </center>
        """
    ).render()
  }

  static func threadClosed(threadID: Int) -> String {
    redirect(
      message: "Sorry! This thread is closed! You will now be returned to the thread.",
      linkPath: "showthread.php?threadid=\(threadID)")
  }

  static func databaseUnavailable() -> String {
    """
    <!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
    <html>
    <head>
    \t<title>Database Unavailable</title>
    </head>
    <body id="something_awful" class="database_error">
    \t<div id="closemsg">
    \t\t<div id="logo"><img src="http://i.somethingawful.com/core/logo_main.gif" alt=""></div>
    \t\t<div id="msg">
    \t\t\t<h1>Database Unavailable!</h1>
    \t\t\tThe database is currently not available.  You can try doing whatever it is you were trying to do again later.  You do not need to notify anyone of your arrival at this page.<br>
    \t\t\t<br>
    \t\t\t<div class="note">
    \t\t\t\t<b>Dear Friend,</b><br>
    \t\t\t\tI'm sure this issue will resolve itself soon.<br>
    \t\t\t\tSA Support Robot<br>
    \t\t\t</div>
    \t\t\t<hr>
    \t\t</div>
    \t</div>
    </body>
    </html>

    """
  }

  static func banned(userName: String, userID: Int) -> String {
    """
    <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "//www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
    <html xmlns="//www.w3.org/1999/xhtml">
    <head>
    <title>You've Been Banned!</title>
    </head>
    <body id="something_awful" class="banned">
    <h1>CONGRATULATIONS \(HTMLText.escape(userName))!!!</h1>
    <img src="//i.somethingawful.com/images/banned/banned2.jpg" alt="Banned!" width="800" height="800" border="1"></p>
    <p class="style2"><a href="/banlist.php?userid=\(userID)&amp;actfilt=-1">To check why you were banned, click here.</a></p>
    <p class="style2"><a href="//forums.somethingawful.com/showthread.php?threadid=3809308">To contact a mod or admin, click here.</a></p>
    <p class="style2"><a href="//www.somethingawful.com/forum-rules/forum-rules/">To read the god damn rules, click here.</a></p>
    <a href="/account.php?action=logout&amp;ma=xxxxxxxx">To logout of your worthless banned account, click here.</a>
    </body>
    </html>

    """
  }
}
