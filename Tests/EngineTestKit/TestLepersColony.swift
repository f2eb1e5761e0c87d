import AwfulBotTestKit
import ForumModel
import Foundation
import Synchronization

/// The Leper's Colony of the in-process forum: punishments newest first, served a page at a time as the forum
/// serves `banlist.php` (page 1 the newest), and each user's rap sheet by name or id. A user is known once a
/// punishment names them or a test registers them; any other name is the forum's "Invalid user specified.".
package final class TestLepersColony: Sendable {
  private struct State {
    var punishments: [Punishment] = []
    var users: [String: String] = [:]
    var nextUserID = 500
    var pageSize = 50
  }

  private let clock: TestClock
  private let state = Mutex(State())

  package init(clock: TestClock) {
    self.clock = clock
  }

  /// Rows a page holds (the forum's Colony lists 50).
  package var pageSize: Int {
    get { state.withLock { $0.pageSize } }
    set { state.withLock { $0.pageSize = max(newValue, 1) } }
  }

  /// Gives a punishment now (by the clock), first on page 1; returns it.
  @discardableResult
  package func punish(
    _ user: String, sentence: Punishment.Sentence = .probation, length: String? = "6 hours",
    by moderator: String = "Ralp", reason: String = "being a horrible jerk", reasonBody: [RichText]? = nil,
    postID: String? = "421665753", date: Date? = nil
  ) -> Punishment {
    let date = date ?? clock.now()
    return state.withLock { state in
      let punishment = Punishment(
        sentence: sentence, probationLength: sentence == .probation ? length : nil, date: date, postID: postID,
        subject: ForumUserReference(name: user, id: Self.id(of: user, in: &state)), reasonHTML: reason,
        reason: reasonBody ?? [.text(reason)],
        requester: ForumUserReference(name: moderator, id: Self.id(of: moderator, in: &state)), approver: nil)
      state.punishments.insert(punishment, at: 0)
      return punishment
    }
  }

  /// Makes a user known without a punishment (a clean record).
  package func register(_ user: String) {
    state.withLock { state in _ = Self.id(of: user, in: &state) }
  }

  /// Every punishment, newest first.
  package var all: [Punishment] { state.withLock { $0.punishments } }

  package func page(_ number: Int) -> LepersColonyPage {
    state.withLock { Self.page(number, of: $0.punishments, size: $0.pageSize) }
  }

  /// A user's rap sheet: `user` is a name (any case) or a user id.
  package func rapSheet(user: String, page number: Int) throws -> LepersColonyPage {
    try state.withLock { state in
      let id = state.users[user.lowercased()] ?? (state.users.values.contains(user) ? user : nil)
      guard let id else {
        throw ForumPageError.standard(
          title: "Special Message From Senor Lowtax", message: "Invalid user specified.")
      }
      return Self.page(number, of: state.punishments.filter { $0.subject.id == id }, size: state.pageSize)
    }
  }

  private static func page(_ number: Int, of rows: [Punishment], size: Int) -> LepersColonyPage {
    let total = max((rows.count + size - 1) / size, 1)
    let current = min(max(number, 1), total)
    return LepersColonyPage(
      punishments: Array(rows.dropFirst((current - 1) * size).prefix(size)),
      navigation: PageNavigation(current: current, total: total))
  }

  private static func id(of user: String, in state: inout State) -> String {
    if let id = state.users[user.lowercased()] { return id }
    state.nextUserID += 1
    state.users[user.lowercased()] = String(state.nextUserID)
    return String(state.nextUserID)
  }
}
