import AwfulScraping
import ForumModel
import Foundation

extension ForumsClient {
  /// Page `page` of the Leper's Colony, newest first: one request, `banlist.php?pagenumber=N`.
  package func lepersColony(page: Int) async throws -> LepersColonyPage {
    try await withSession {
      try await loadLepersColony(query: [("pagenumber", String(Clamp.forumNumber(page, atLeast: 1)))])
    }
  }

  /// Page `page` of one user's rap sheet, newest first. `user` is a numeric user id (one request,
  /// `banlist.php?userid=U&pagenumber=N`) or a user name, looked up on the forum's profile page first
  /// (`member.php?action=getinfo&username=NAME`, two requests; the id found is kept ten minutes, so the next pages
  /// of the same sheet are one request each). A name the forum does not know is `ForumPageError.standard` with the
  /// forum's sentence; an empty or overlong one is `RapSheetUserInvalid`, and nothing is asked.
  package func rapSheet(user: String, page: Int) async throws -> LepersColonyPage {
    let named = user.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !named.isEmpty else { throw RapSheetUserInvalid.empty }
    guard named.count <= RapSheetUserInvalid.longestName else { throw RapSheetUserInvalid.tooLong }
    return try await withSession {
      var userID = Self.numericUserID(named) ?? userIDs.id(named: named)
      if userID == nil { userID = try await lookUpUser(named: named).id }
      guard let userID else {
        throw ForumsClientError.pageNotUnderstood(ScrapeError(page: "profile", reason: "no user id"))
      }
      return try await loadLepersColony(
        query: [("userid", userID), ("pagenumber", String(Clamp.forumNumber(page, atLeast: 1)))])
    }
  }

  /// The user a name belongs to, from their profile page (`member.php?action=getinfo&username=NAME`). The forum's
  /// refusal (its "Invalid user specified." page) is `ForumPageError.standard` with its title and sentence.
  package func user(named name: String) async throws -> ForumUserReference {
    try await withSession { try await lookUpUser(named: name) }
  }

  private func lookUpUser(named name: String) async throws -> ForumUserReference {
    let document: HTMLDocument
    do {
      (document, _) = try await fetchDocument(
        .get("member.php", [("action", "getinfo"), ("username", name)]), page: "profile")
    } catch ForumsClientError.forumRefused(let title, let message) {
      throw ForumPageError.standard(title: title, message: message)
    }
    let user = try scrape("profile") { try PageScrapers.profileUser(document) }
    if let id = user.id { userIDs.store(id, named: name) }
    return user
  }

  private func loadLepersColony(query: [(String, String)]) async throws -> LepersColonyPage {
    let (document, _) = try await fetchDocument(.get("banlist.php", query), page: "Leper's Colony")
    let result = try scrape("Leper's Colony") {
      try PageScrapers.lepersColony(document, timeZone: configuration.timeZone)
    }
    for row in result.skipped {
      logger.warning(
        "a Leper's Colony row could not be read and was left out",
        metadata: ["row": "\(row.row)", "reason": "\(row.reason)"])
    }
    note(PageScrapers.probation(document, timeZone: configuration.timeZone))
    return result.page
  }

  /// `user` as a user id when it is one: 1 to 18 decimal digits. Anything else, a longer number too, is a name for
  /// the forum to look up (and refuse when it knows no such user).
  static func numericUserID(_ user: String) -> String? {
    guard (1...18).contains(user.utf8.count), user.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    return user
  }
}

/// `rapSheet(user:page:)` was given no user, or a name longer than any forum user's: nothing is asked of the forum
/// (an empty name would look up the bot's own profile).
package enum RapSheetUserInvalid: ForumFailure, Sendable, Hashable {
  case empty
  case tooLong

  /// Longer than any forum user name; the forum would only refuse it.
  static let longestName = 64

  package var description: String {
    switch self {
    case .empty: "Name a user to read their rap sheet: a forum user name or a numeric user id."
    case .tooLong: "No forum user has a name that long (\(Self.longestName) characters at most)."
    }
  }

  /// The asker's mistake, not a failure of the bot.
  package var isNotFound: Bool { true }
}
