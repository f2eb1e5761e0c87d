import ChatBridge
import ForumModel
import Foundation

/// One chat page of a user's rap sheet, read from the forum's pages (newest first), with the sheet's whole count.
/// The forum's first page gives its page size and page count; a sheet of several pages costs one more request for
/// the last page (the exact count), and one or two for the page the chat page falls on, each from the forum the
/// command was given (the command budget's).
struct RapSheet: Sendable {
  /// The entries of the chat page asked for (none past the end).
  var entries: [Punishment]
  /// Every entry the sheet holds.
  var total: Int
  /// The user's id, when the forum gave one: what the rap sheet's link names.
  var userID: String?
  /// The user's name as the forum writes it, when the sheet lists anything.
  var userName: String?

  /// The forum's page count is read from the page: a bound keeps a hostile number from asking for absurd pages.
  static let maximumForumPages = 1_000

  static func read(user: String, chatPage: Int, pageSize: Int, forum: any Forum) async throws -> RapSheet {
    let first = try await forum.rapSheet(user: user, page: 1)
    let perPage = first.punishments.count
    let userID = first.punishments.first?.subject.id ?? (user.allSatisfy(\.isNumber) ? user : nil)
    let userName = first.punishments.first?.subject.name
    guard perPage > 0 else { return RapSheet(entries: [], total: 0, userID: userID, userName: userName) }
    let forumPages = min(max(first.navigation?.total ?? 1, 1), maximumForumPages)
    var pages = [1: first.punishments]
    var total = perPage
    if forumPages > 1 {
      let last = try await forum.rapSheet(user: user, page: forumPages)
      pages[forumPages] = last.punishments
      total = (forumPages - 1) * perPage + last.punishments.count
    }
    let start = (chatPage - 1) * pageSize
    guard start < total else { return RapSheet(entries: [], total: total, userID: userID, userName: userName) }
    let end = min(start + pageSize, total)
    var entries: [Punishment] = []
    for forumPage in (start / perPage + 1)...((end - 1) / perPage + 1) {
      let rows: [Punishment]
      if let read = pages[forumPage] {
        rows = read
      } else {
        rows = try await forum.rapSheet(user: user, page: forumPage).punishments
        pages[forumPage] = rows
      }
      let offset = (forumPage - 1) * perPage
      for (index, row) in rows.enumerated() where (start..<end).contains(offset + index) {
        entries.append(row)
      }
    }
    return RapSheet(entries: entries, total: total, userID: userID, userName: userName)
  }

  /// The user's rap sheet on the forum, or the Leper's Colony when the id is not known.
  func link(_ links: ForumLinks) -> String {
    guard let userID, !userID.isEmpty, userID.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return links.lepersColony()
    }
    return links.rapSheet(userID: userID)
  }

  /// The forum's answer for a user it does not know ("Invalid user specified.", "This user has not registered").
  static func isUnknownUser(_ error: ForumPageError) -> Bool {
    guard case .standard(_, let message) = error else { return false }
    let lowered = message.lowercased()
    return lowered.contains("invalid user") || lowered.contains("not registered") || lowered.contains("no such user")
  }
}
