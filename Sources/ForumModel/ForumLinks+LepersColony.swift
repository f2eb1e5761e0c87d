import Foundation

/// Links into the Leper's Colony (`banlist.php`).
extension ForumLinks {
  /// The Leper's Colony's first page: the newest punishments.
  package func lepersColony() -> String {
    "\(lepersBase)banlist.php"
  }

  /// One user's rap sheet: every punishment the forum lists for them.
  package func rapSheet(userID: String) -> String {
    "\(lepersBase)banlist.php?userid=\(userID)"
  }

  private var lepersBase: String {
    let string = baseURL.absoluteString
    return string.hasSuffix("/") ? string : string + "/"
  }
}
