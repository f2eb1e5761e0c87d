import Foundation

/// The forum's accounts. Names are unique regardless of case, as on the forum (login and the private-message form
/// look accounts up by name).
struct UserStore {
  private var usersByID: [Int: FakeUser] = [:]
  /// The id an account added without one gets.
  private var nextID = 1000

  var count: Int { usersByID.count }
  var bannedCount: Int { usersByID.values.filter(\.isBanned).count }
  /// Every account, in id order.
  var all: [FakeUser] { usersByID.values.sorted { $0.id < $1.id } }

  func user(_ id: Int) -> FakeUser? { usersByID[id] }

  func contains(_ id: Int) -> Bool { usersByID[id] != nil }

  func userID(named name: String) -> Int? {
    usersByID.values.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.id
  }

  /// Adds an account under `id`, or under the next free id when nil. Returns the id.
  mutating func add(
    id: Int?, name: String, password: String, regdate: Date, isAdmin: Bool, isModerator: Bool, postsPerPage: Int
  ) throws -> Int {
    let userID = id ?? nextID
    guard usersByID[userID] == nil else { throw FakeForumError.duplicateID("user \(userID)") }
    guard self.userID(named: name) == nil else { throw FakeForumError.duplicateID("user \(name)") }
    nextID = max(nextID, userID + 1)
    usersByID[userID] = FakeUser(
      id: userID, name: name, password: password, regdate: regdate, isAdmin: isAdmin, isModerator: isModerator,
      postsPerPage: postsPerPage)
    return userID
  }

  mutating func update(_ id: Int, _ change: (inout FakeUser) -> Void) throws {
    guard var user = usersByID[id] else { throw FakeForumError.unknownUser("\(id)") }
    change(&user)
    usersByID[id] = user
  }
}
