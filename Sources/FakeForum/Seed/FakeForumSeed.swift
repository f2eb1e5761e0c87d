import Foundation

/// What a fresh forum contains.
package enum FakeForumSeed: String, Sendable, Hashable, Codable, CaseIterable {
  /// Two groups of forums, threads with posts (one spanning several pages, non-ASCII and emoji text, quotes,
  /// spoilers, images, links), the bot account with bookmarks in two star colours, other users, an announcement.
  case demo
  /// Only the bot account and one forum to post in.
  case empty

  /// The account the bot logs in with, in every seed.
  package static let botUsername = "awfulbot"
  package static let botPassword = "hunter2"
  package static let botUserID = 1001

  func apply(to state: isolated ForumState) throws {
    switch self {
    case .demo: try DemoSeed.apply(to: state)
    case .empty:
      try state.addUser(
        name: Self.botUsername, password: Self.botPassword, id: Self.botUserID,
        regdate: Date(timeIntervalSince1970: 1_420_092_000))
      let group = try state.addGroup(title: "Main", id: 48)
      try state.addForum(title: "General Bullshit", parent: group, id: 273, shortTitle: "GBS")
    }
  }
}
