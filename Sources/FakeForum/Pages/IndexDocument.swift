/// The shape of `index.php?json=1` (keys as the forum spells them).
struct IndexDocument: Encodable {
  struct Stats: Encodable {
    var archived_posts: Int
    var archived_threads: Int
    var banned_users: Int
    var banned_users_total: Int
    var online_registered: Int
    var online_total: Int
    var unique_posts: Int
    var unique_threads: Int
    var usercount: Int
  }

  struct User: Encodable {
    var userid: Int
    var username: String
    var homepage: String
    var icq: String
    var aim: String
    var yahoo: String
    var gender: String
    var usertitle: String
    var joindate: Int
    var lastpost: Int
    var posts: Int
    var receivepm: Int
    var postsperday: Double
    var role: String
    var biography: String
    var location: String
    var interests: String
    var occupation: String
    var picture: String
  }

  struct Moderator: Encodable {
    var userid: Int
    var username: String
  }

  struct Node: Encodable {
    var id: Int
    var title: String
    var title_short: String
    var has_threads: Bool
    var icon: String
    var sub_forums: [Node]
    var moderators: [Moderator]
  }

  var stats: Stats
  var user: User?
  var forums: [Node]
}
