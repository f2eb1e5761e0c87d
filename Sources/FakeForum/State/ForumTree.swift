/// The forum list: top-level groups, the forums in them and their subforums, each in display order.
struct ForumTree {
  private var nodes: [Int: FakeForumNode] = [:]
  private var groupIDs: [Int] = []
  /// The id a group or forum added without one gets.
  private var nextID = 500

  var count: Int { nodes.count }
  var groups: [FakeForumNode] { groupIDs.compactMap { nodes[$0] } }

  func node(_ id: Int) -> FakeForumNode? { nodes[id] }

  func children(of node: FakeForumNode) -> [FakeForumNode] { node.childIDs.compactMap { nodes[$0] } }

  /// Group first, then forum, then subforum: what `div.breadcrumbs` lists.
  func breadcrumbs(forumID: Int) -> [FakeForumNode] {
    var chain: [FakeForumNode] = []
    var current = nodes[forumID]
    while let node = current {
      chain.insert(node, at: 0)
      current = node.parentID.flatMap { nodes[$0] }
    }
    return chain
  }

  /// A top-level group (`has_threads == false`). Returns its id.
  mutating func addGroup(title: String, id: Int?) throws -> Int {
    let groupID = id ?? nextID
    guard nodes[groupID] == nil else { throw FakeForumError.duplicateID("forum \(groupID)") }
    nextID = max(nextID, groupID + 1)
    nodes[groupID] = FakeForumNode(id: groupID, title: title, hasThreads: false)
    groupIDs.append(groupID)
    return groupID
  }

  /// A forum inside a group, or a subforum inside a forum, listed after its siblings. Returns its id.
  mutating func addForum(
    title: String, parent: Int, id: Int?, shortTitle: String?, icon: String, moderators: [Int]
  ) throws -> Int {
    guard nodes[parent] != nil else { throw FakeForumError.unknownForum(parent) }
    let forumID = id ?? nextID
    guard nodes[forumID] == nil else { throw FakeForumError.duplicateID("forum \(forumID)") }
    nextID = max(nextID, forumID + 1)
    nodes[forumID] = FakeForumNode(
      id: forumID, title: title, shortTitle: shortTitle, hasThreads: true, icon: icon, parentID: parent,
      moderatorIDs: moderators)
    nodes[parent]?.childIDs.append(forumID)
    return forumID
  }
}
