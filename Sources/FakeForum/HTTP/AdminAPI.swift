import ForumModel
import Foundation

/// The JSON control API under `/_fake/` (documented in docs/fake-forum.md). Admin requests are not logged and
/// no fault applies to them.
struct AdminAPI: Sendable {
  let state: ForumState

  struct Reply {
    var status: Int
    var body: Data
  }

  /// A user named by id or by name.
  struct UserReference: Decodable {
    var id: Int?
    var name: String?

    init(id: Int) { self.id = id }
    init(name: String) { self.name = name }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int.self) {
        id = number
      } else {
        name = try container.decode(String.self)
      }
    }
  }

  struct NewThread: Decodable {
    var forum: Int
    var title: String
    var author: UserReference
    var body: String?
    var sticky: Bool?
    var closed: Bool?
    var date: Double?
  }

  struct NewPost: Decodable {
    var thread: Int
    var author: UserReference
    var body: String
    var html: Bool?
    var date: Double?
  }

  struct NewAnnouncement: Decodable {
    var title: String
    var author: UserReference
    var body: String
    var date: Double?
  }

  struct NewPrivateMessage: Decodable {
    var to: UserReference
    var from: UserReference
    var title: String
    var body: String
    var html: Bool?
    var date: Double?
  }

  /// One private message as `GET /_fake/pms` lists it.
  struct PrivateMessageSummary: Encodable {
    var id: Int
    var owner: String
    var folder: String
    var from: String
    var to: String
    var title: String
    var body: String
    var date: Date
    var isRead: Bool
    var wasRepliedTo: Bool
    var wasForwarded: Bool
  }

  struct NewBookmark: Decodable {
    var user: UserReference
    var thread: Int
    var star: String?
  }

  struct BookmarkOrderRequest: Decodable {
    var user: UserReference
    var order: String
  }

  struct NewUser: Decodable {
    var name: String
    var password: String
    var id: Int?
    var admin: Bool?
    var moderator: Bool?
    /// A Platinum account may search.
    var platinum: Bool?
  }

  /// `POST /_fake/platinum`: makes an account Platinum (it may search) or not.
  struct PlatinumRequest: Decodable {
    var user: UserReference
    var platinum: Bool
  }

  /// `POST /_fake/search`: the least seconds between two searches of one account (0 is no limit) and the hits a
  /// results page lists.
  struct SearchSettingsRequest: Decodable {
    var floodSeconds: Int?
    var perPage: Int?
  }

  struct FaultRequest: Decodable {
    var kind: String
    var count: Int?
    var milliseconds: Int?
    /// For `probation`: the end its banner names (Unix seconds).
    var until: Double?
    /// For `floodCheck`: the minimum between two replies of one account (30 when not given; 0 turns it off).
    /// For `wall`: the `Retry-After` it sends.
    var seconds: Int?
    /// For `wall`: `challenge`, `rateLimit` or `maintenance`.
    var wall: String?
    /// For `wall`: the request paths it stands in front of (all when not given).
    var paths: [String]?
  }

  /// `POST /_fake/punishments`: a new Leper's Colony entry.
  struct NewPunishment: Decodable {
    /// `probation`, `ban`, `autoban` or `permaban`.
    var kind: String
    var user: UserReference
    var requester: UserReference
    /// The requester when not given.
    var approver: UserReference?
    /// HTML, served as it is.
    var reason: String
    /// A probation's length ("6 hours"), appended as "User loses posting privileges for 6 hours."
    var length: String?
    var post: Int?
    var date: Double?
  }

  /// One entry as `GET /_fake/punishments` lists it.
  struct PunishmentSummary: Encodable {
    var id: Int
    var kind: String
    var user: String
    var userID: Int
    var requester: String
    var approver: String?
    var reason: String
    var post: Int?
    var date: Date
  }

  /// `PUT /_fake/posts/<id>`: the post's new body (BBCode, or HTML with `html`).
  struct EditedPost: Decodable {
    var body: String
    var html: Bool?
  }

  struct ResetRequest: Decodable {
    var seed: String?
  }

  struct Summary: Encodable, Sendable {
    struct User: Encodable, Sendable {
      var id: Int
      var name: String
    }
    var users: [User]
    var forumCount: Int
    var threadCount: Int
    var announcementCount: Int
    var faults: [Fault]
    var sessionCount: Int
  }

  func handle(method: String, path: String, query: String?, body: [UInt8]) async -> ForumResponse {
    do {
      let reply = try await route(method: method, path: path, query: query, body: Data(body))
      return .jsonData(reply.body, status: reply.status)
    } catch let error as FakeForumError {
      return .json(["error": error.description], status: 404)
    } catch {
      return .json(["error": "bad request: \(error)"], status: 400)
    }
  }

  private func route(method: String, path: String, query: String?, body: Data) async throws -> Reply {
    let decoder = JSONDecoder()
    switch (method, path) {
    case ("GET", "/_fake/requests"):
      var requests = await state.requests()
      if let pathFilter = FormDecoder.decodeQuery(query).first(where: { $0.name == "path" })?.value {
        requests = requests.filter { $0.path == pathFilter }
      }
      return try ok(requests)
    case ("DELETE", "/_fake/requests"), ("POST", "/_fake/requests/clear"):
      await state.clearRequests()
      return try ok(["result": "cleared"])
    case ("GET", "/_fake/faults"):
      return try ok(await state.faults())
    case ("POST", "/_fake/faults"):
      let request = try decoder.decode(FaultRequest.self, from: body)
      if request.kind == "logout" {
        await state.invalidateSessions()
      } else if request.kind == FaultKind.probation.rawValue, let until = request.until {
        await state.setProbation(until: Date(timeIntervalSince1970: until))
      } else {
        await state.setFault(try fault(request))
      }
      return try ok(await state.faults())
    case ("DELETE", "/_fake/faults"):
      await state.clearFaults()
      return try ok(await state.faults())
    case ("DELETE", _) where path.hasPrefix("/_fake/faults/"):
      guard let kind = FaultKind(rawValue: String(path.dropFirst("/_fake/faults/".count))) else {
        throw FakeForumError.invalidArgument("unknown fault kind")
      }
      await state.clearFault(kind)
      return try ok(await state.faults())
    case ("POST", "/_fake/logout"):
      await state.invalidateSessions()
      return try ok(["result": "sessions invalidated"])
    case ("POST", "/_fake/users"):
      let request = try decoder.decode(NewUser.self, from: body)
      let id = try await state.addUser(
        name: request.name, password: request.password, id: request.id, isAdmin: request.admin ?? false,
        isModerator: request.moderator ?? false)
      if request.platinum == true { try await state.setPlatinum(user: id, true) }
      return try ok(["userID": id])
    case ("POST", "/_fake/platinum"):
      let request = try decoder.decode(PlatinumRequest.self, from: body)
      try await state.setPlatinum(user: try await userID(request.user), request.platinum)
      return try ok(["result": request.platinum ? "platinum" : "not platinum"])
    case ("POST", "/_fake/search"):
      let request = try decoder.decode(SearchSettingsRequest.self, from: body)
      await state.setSearchSettings(floodSeconds: request.floodSeconds, perPage: request.perPage)
      return try ok(["result": "search settings changed"])
    case ("POST", "/_fake/threads"):
      let request = try decoder.decode(NewThread.self, from: body)
      let author = try await userID(request.author)
      let threadID = try await state.addThread(
        forum: request.forum, title: request.title, author: author, body: request.body ?? "",
        date: request.date.map(Date.init(timeIntervalSince1970:)), sticky: request.sticky ?? false,
        closed: request.closed ?? false)
      let postID = await state.thread(threadID)?.postIDs.first ?? 0
      return try ok(["threadID": threadID, "postID": postID])
    case (_, _) where path == "/_fake/attachments" || path.hasPrefix("/_fake/attachments/"):
      return try await attachmentRoute(method: method, path: path, body: body)
    case ("POST", "/_fake/posts"):
      let request = try decoder.decode(NewPost.self, from: body)
      let author = try await userID(request.author)
      let postID = try await state.addPost(
        thread: request.thread, author: author,
        body: request.html == true ? .html(request.body) : .bbcode(request.body),
        date: request.date.map(Date.init(timeIntervalSince1970:)))
      return try ok(["postID": postID])
    case ("POST", "/_fake/announcements"):
      let request = try decoder.decode(NewAnnouncement.self, from: body)
      try await state.addAnnouncement(
        title: request.title, author: try await userID(request.author), body: request.body,
        date: request.date.map(Date.init(timeIntervalSince1970:)))
      return try ok(["result": "added"])
    case ("POST", "/_fake/pms"):
      let request = try decoder.decode(NewPrivateMessage.self, from: body)
      let id = try await state.sendPrivateMessage(
        from: try await userID(request.from), to: try await userID(request.to), title: request.title,
        body: request.html == true ? .html(request.body) : .bbcode(request.body),
        date: request.date.map(Date.init(timeIntervalSince1970:)))
      return try ok(["privateMessageID": id])
    case ("GET", "/_fake/pms"):
      var messages = await state.allPrivateMessages()
      if let user = FormDecoder.decodeQuery(query).first(where: { $0.name == "user" })?.value {
        let owner = try await userID(Int(user).map { UserReference(id: $0) } ?? UserReference(name: user))
        messages = messages.filter { $0.ownerID == owner }
      }
      var summaries: [PrivateMessageSummary] = []
      for message in messages {
        summaries.append(await summary(message))
      }
      return try ok(summaries)
    case ("POST", "/_fake/bookmarks"):
      let request = try decoder.decode(NewBookmark.self, from: body)
      let star = try request.star.map { name in
        guard let star = StarColor(name: name) ?? Int(name).flatMap(StarColor.init(rawValue:)) else {
          throw FakeForumError.invalidArgument("unknown star \(name)")
        }
        return star
      }
      try await state.addBookmark(user: try await userID(request.user), thread: request.thread, star: star ?? .orange)
      return try ok(["result": "bookmarked"])
    case ("POST", "/_fake/bookmarks/order"):
      let request = try decoder.decode(BookmarkOrderRequest.self, from: body)
      guard let order = BookmarkOrder(rawValue: request.order) else {
        throw FakeForumError.invalidArgument("unknown bookmark order \(request.order)")
      }
      try await state.setBookmarkOrder(user: try await userID(request.user), order)
      return try ok(["result": "bookmarks sorted by \(order.rawValue)"])
    case ("PUT", _) where path.hasPrefix("/_fake/posts/"):
      guard let postID = Int(path.dropFirst("/_fake/posts/".count)) else {
        throw FakeForumError.invalidArgument("not a post id")
      }
      let request = try decoder.decode(EditedPost.self, from: body)
      try await state.editPost(postID, body: request.html == true ? .html(request.body) : .bbcode(request.body))
      return try ok(["result": "edited"])
    case ("DELETE", _) where path.hasPrefix("/_fake/posts/"):
      guard let postID = Int(path.dropFirst("/_fake/posts/".count)) else {
        throw FakeForumError.invalidArgument("not a post id")
      }
      let threadID = try await state.deletePost(postID)
      return try ok(["threadID": threadID])
    case ("POST", "/_fake/reset"):
      let request = body.isEmpty ? ResetRequest(seed: nil) : try decoder.decode(ResetRequest.self, from: body)
      guard let seed = FakeForumSeed(rawValue: request.seed ?? "demo") else {
        throw FakeForumError.invalidArgument("unknown seed")
      }
      try await state.reset(seed: seed)
      return try ok(["result": "reset to \(seed.rawValue)"])
    case ("POST", "/_fake/punishments"):
      let request = try decoder.decode(NewPunishment.self, from: body)
      guard let kind = FakePunishment.Kind(rawValue: request.kind) else {
        throw FakeForumError.invalidArgument("unknown punishment kind \(request.kind)")
      }
      let requester = try await userID(request.requester)
      var approver = requester
      if let named = request.approver { approver = try await userID(named) }
      let id = try await state.addPunishment(
        kind: kind, user: try await userID(request.user), requester: requester, approver: approver,
        reasonHTML: request.reason,
        probationLength: request.length, postID: request.post, date: request.date.map(Date.init(timeIntervalSince1970:))
      )
      return try ok(["punishmentID": id])
    case ("GET", "/_fake/punishments"):
      var user: Int?
      if let name = FormDecoder.decodeQuery(query).first(where: { $0.name == "user" })?.value {
        user = try await userID(Int(name).map { UserReference(id: $0) } ?? UserReference(name: name))
      }
      var summaries: [PunishmentSummary] = []
      for entry in await state.lepersColony(user: user) {
        func name(_ id: Int) async -> String { await state.user(id)?.name ?? "\(id)" }
        var approver: String?
        if let id = entry.approverID { approver = await name(id) }
        summaries.append(
          PunishmentSummary(
            id: entry.id, kind: entry.kind.rawValue, user: await name(entry.subjectID), userID: entry.subjectID,
            requester: await name(entry.requesterID),
            approver: approver, reason: entry.reasonHTML,
            post: entry.postID, date: entry.date))
      }
      return try ok(summaries)
    case ("GET", "/_fake/state"):
      return try ok(await Self.summary(of: state))
    default:
      return Reply(status: 404, body: Data(#"{"error":"no such admin endpoint"}"#.utf8))
    }
  }

  func ok(_ value: some Encodable) throws -> Reply {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return Reply(status: 200, body: try encoder.encode(value))
  }

  /// `GET /_fake/state`, read in one turn on the actor so the counts agree with each other.
  private static func summary(of state: isolated ForumState) -> Summary {
    Summary(
      users: state.users.all.map { .init(id: $0.id, name: $0.name) }, forumCount: state.forums.count,
      threadCount: state.threads.threadCount, announcementCount: state.announcements.count,
      faults: state.faults(), sessionCount: state.sessions.count)
  }

  private func summary(_ message: FakePrivateMessage) async -> PrivateMessageSummary {
    func name(_ id: Int) async -> String { await state.user(id)?.name ?? "\(id)" }
    let body: String
    switch message.body {
    case .bbcode(let text), .html(let text): body = text
    }
    return PrivateMessageSummary(
      id: message.id, owner: await name(message.ownerID), folder: message.folder == .inbox ? "inbox" : "sent",
      from: await name(message.fromID), to: await name(message.toID), title: message.title, body: body,
      date: message.date, isRead: message.isRead, wasRepliedTo: message.wasRepliedTo,
      wasForwarded: message.wasForwarded)
  }

  func userID(_ reference: UserReference) async throws -> Int {
    if let id = reference.id {
      guard await state.user(id) != nil else { throw FakeForumError.unknownUser("\(id)") }
      return id
    }
    let name = reference.name ?? ""
    guard let id = await state.userID(named: name) else { throw FakeForumError.unknownUser(name) }
    return id
  }

  private func fault(_ request: FaultRequest) throws -> Fault {
    switch FaultKind(rawValue: request.kind) {
    case .serverError: return .serverError(count: request.count)
    case .delay: return .delay(milliseconds: request.milliseconds ?? 1000)
    case .databaseUnavailable: return .databaseUnavailable
    case .banned: return .banned
    case .truncatedHTML: return .truncatedHTML
    case .probation: return .probation
    case .floodCheck: return .floodCheck(seconds: request.seconds ?? 30)
    case .wall:
      guard let kind = WallFault.Kind(rawValue: request.wall ?? "challenge") else {
        throw FakeForumError.invalidArgument("unknown wall \(request.wall ?? "")")
      }
      return .wall(WallFault(kind: kind, paths: request.paths, retryAfterSeconds: request.seconds))
    case nil: throw FakeForumError.invalidArgument("unknown fault kind \(request.kind)")
    }
  }
}
