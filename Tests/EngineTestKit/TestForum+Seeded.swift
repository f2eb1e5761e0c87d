import AwfulBotTestKit
import ForumModel
import Foundation

extension TestForum {
  /// The command tests' forum, with the real forum's base URL: two forums, three threads (one in each, one closed),
  /// thread 100 bookmarked with three unread posts; the bot's replies are numbered from 900000.
  /// - Parameter clock: the forum's clock (the flood check's), shared with the engine's where a test moves both.
  package static func seeded(clock: TestClock = TestClock()) -> TestForum {
    let forum = TestForum(baseURL: URL(string: "https://forums.somethingawful.com/")!, clock: clock)
    forum.startPostIDs(after: 899_999)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    func posts(_ prefix: String, count: Int) -> [Post] {
      (1...count).map { index in
        Post(
          id: "\(prefix)\(index)", index: index,
          author: PostAuthor(name: index == 1 ? "OriginalPoster" : "Poster\(index)", isOriginalPoster: index == 1),
          date: date.addingTimeInterval(Double(index) * 60), body: [.text("Post number \(index) of \(prefix)")])
      }
    }
    forum.add(
      Thread(
        id: "100", title: "The Bookmarked Thread", forumID: "26", posts: posts("10", count: 45), isBookmarked: true,
        unreadCount: 3, forumName: "General Bullshit"))
    forum.add(
      Thread(
        id: "200", title: "Another Thread", forumID: "26", posts: posts("20", count: 3),
        forumName: "General Bullshit"))
    forum.add(
      Thread(
        id: "300", title: "Closed Thread", forumID: "273", posts: posts("30", count: 2), isClosed: true,
        forumName: "General Bullshit"))
    forum.setIndex(
      ForumIndex(
        groups: [
          ForumNode(
            id: "48", title: "Main", hasThreads: false,
            subforums: [
              ForumNode(id: "26", title: "FYAD", hasThreads: true),
              ForumNode(id: "273", title: "General Bullshit", shortTitle: "GBS", hasThreads: true),
              ForumNode(id: "274", title: "General Chat", hasThreads: true),
            ])
        ], user: nil))
    return forum
  }
}
