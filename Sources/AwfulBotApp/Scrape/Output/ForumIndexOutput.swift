import AwfulScraping

/// `kind: "index"`: `index.php?json=1`, the forum tree and the logged-in user.
struct ForumIndexOutput: Encodable, Sendable {
  struct Forum: Encodable, Sendable {
    var id: String
    var title: String
    @JSONNullable var shortTitle: String? = nil
    /// False for a group (a top-level category without threads).
    var hasThreads: Bool
    @JSONNullable var icon: String? = nil
    var moderators: [String]
    var subforums: [Forum]

    init(_ node: ForumNode) {
      id = node.id
      title = node.title
      shortTitle = node.shortTitle
      hasThreads = node.hasThreads
      icon = node.icon
      moderators = node.moderators
      subforums = node.subforums.map(Forum.init)
    }
  }

  struct User: Encodable, Sendable {
    var id: String
    var name: String
    @JSONNullable var biography: String? = nil
  }

  var kind = ScrapeKind.index.rawValue
  var groups: [Forum]
  @JSONNullable var user: User? = nil

  init(_ index: ForumIndex) {
    groups = index.groups.map(Forum.init)
    user = index.user.map { User(id: $0.id, name: $0.name, biography: $0.biography) }
  }
}
