import ForumModel
import Foundation

/// Everything the emulated forum knows, in memory. Tests change it through these methods while the server runs;
/// the HTTP handlers (extensions in `Pages/`) read and change it in the same actor so every request sees one state.
package actor ForumState {
  let timeZone: TimeZone
  let clock: ForumClockStyle
  let pageNav: PageNavStyle
  let omitPostIndexes: Bool
  let requestLogLimit: Int
  let now: @Sendable () -> Date

  var users: [Int: FakeUser] = [:]
  var forums: [Int: FakeForumNode] = [:]
  var groupIDs: [Int] = []
  var threads: [Int: FakeThread] = [:] {
    didSet { listingVersion &+= 1 }
  }
  var threadIDsByForum: [Int: [Int]] = [:] {
    didSet { listingVersion &+= 1 }
  }
  var posts: [Int: FakePost] = [:]
  /// Post-id ranges reserved for synthetic posts, in allocation order (so sorted).
  var generatedRanges: [(range: Range<Int>, threadID: Int)] = []
  /// user → thread → star.
  var bookmarks: [Int: [Int: StarColor]] = [:] {
    didSet { listingVersion &+= 1 }
  }
  /// Bumped by every change to threads or bookmarks, so the sorted listings below know when to sort again.
  var listingVersion = 0
  /// Sorted thread ids of bookmark lists and forum lists, valid while `listingVersion` is `listingCacheVersion`: a
  /// 20,000-bookmark account is read 40 threads a page, and sorting every thread for each page made listing the
  /// whole account quadratic.
  var listingCache: [ListingKey: [Int]] = [:]
  var listingCacheVersion = -1

  enum ListingKey: Hashable {
    case bookmarks(user: Int)
    case forum(Int)
  }
  /// user → thread → index of the last post read (1-based). No entry: never opened.
  var lastRead: [Int: [Int: Int]] = [:]
  var announcements: [FakeAnnouncement] = []
  /// Private messages by id, every user's folders together (`ForumState+PrivateMessages.swift`).
  var privateMessages: [Int: FakePrivateMessage] = [:]
  /// sessionhash → user id.
  var sessions: [String: Int] = [:]
  /// form_cookie → user id, for newreply forms handed out and not yet used.
  var formCookies: [String: Int] = [:]
  var faultSettings = FaultSettings()
  var requestLog: [LoggedRequest] = []

  var nextUserID = 1000
  var nextForumID = 500
  var nextThreadID = 3_500_000
  var nextPostID = 400_000_000
  var nextPrivateMessageID = 4_700_000

  /// A forum filled with the configuration's seed. Async because seeding runs on the actor.
  package init(configuration: FakeForumConfiguration) async throws {
    timeZone = configuration.timeZone
    clock = configuration.clock
    pageNav = configuration.pageNav
    omitPostIndexes = configuration.omitPostIndexes
    requestLogLimit = configuration.requestLogLimit
    now = configuration.now
    try configuration.seed.apply(to: self)
  }

  var dates: ForumDateFormatter { ForumDateFormatter(timeZone: timeZone, clock: clock) }

  /// The forum prints minutes: dates are kept at whole minutes so what a scraper reads equals what was stored.
  func minute(_ date: Date?) -> Date {
    let value = (date ?? now()).timeIntervalSince1970
    return Date(timeIntervalSince1970: (value / 60).rounded(.down) * 60)
  }

  /// Registration dates are printed as days: kept at midnight in the forum's zone.
  func startOfDay(_ date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.startOfDay(for: date)
  }

  // MARK: Users

  @discardableResult
  package func addUser(
    name: String, password: String, id: Int? = nil, regdate: Date? = nil, isAdmin: Bool = false,
    isModerator: Bool = false, postsPerPage: Int = 40
  ) throws -> Int {
    let userID = id ?? nextUserID
    guard users[userID] == nil else { throw FakeForumError.duplicateID("user \(userID)") }
    guard self.userID(named: name) == nil else { throw FakeForumError.duplicateID("user \(name)") }
    nextUserID = max(nextUserID, userID + 1)
    let registered = regdate ?? Date(timeIntervalSince1970: 1_167_372_000)
    users[userID] = FakeUser(
      id: userID, name: name, password: password, regdate: startOfDay(registered), isAdmin: isAdmin,
      isModerator: isModerator, postsPerPage: postsPerPage)
    return userID
  }

  package func userID(named name: String) -> Int? {
    users.values.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.id
  }

  package func user(_ id: Int) -> FakeUser? { users[id] }

  package func setBanned(user: Int, _ banned: Bool) throws {
    guard users[user] != nil else { throw FakeForumError.unknownUser("\(user)") }
    users[user]?.isBanned = banned
  }

  package func setPostsPerPage(user: Int, _ perPage: Int) throws {
    guard users[user] != nil else { throw FakeForumError.unknownUser("\(user)") }
    users[user]?.postsPerPage = max(1, perPage)
  }

  // MARK: Forums

  /// A top-level group (`has_threads == false`), e.g. "Main" or "Discussion".
  @discardableResult
  package func addGroup(title: String, id: Int? = nil) throws -> Int {
    let groupID = id ?? nextForumID
    guard forums[groupID] == nil else { throw FakeForumError.duplicateID("forum \(groupID)") }
    nextForumID = max(nextForumID, groupID + 1)
    forums[groupID] = FakeForumNode(id: groupID, title: title, hasThreads: false)
    groupIDs.append(groupID)
    return groupID
  }

  /// A forum inside a group, or a subforum inside a forum.
  @discardableResult
  package func addForum(
    title: String, parent: Int, id: Int? = nil, shortTitle: String? = nil, icon: String = "", moderators: [Int] = []
  ) throws -> Int {
    guard forums[parent] != nil else { throw FakeForumError.unknownForum(parent) }
    let forumID = id ?? nextForumID
    guard forums[forumID] == nil else { throw FakeForumError.duplicateID("forum \(forumID)") }
    nextForumID = max(nextForumID, forumID + 1)
    forums[forumID] = FakeForumNode(
      id: forumID, title: title, shortTitle: shortTitle, hasThreads: true, icon: icon, parentID: parent,
      moderatorIDs: moderators)
    forums[parent]?.childIDs.append(forumID)
    return forumID
  }

  /// Group first, then forum, then subforum: what `div.breadcrumbs` lists.
  func breadcrumbs(forumID: Int) -> [FakeForumNode] {
    var chain: [FakeForumNode] = []
    var current = forums[forumID]
    while let node = current {
      chain.insert(node, at: 0)
      current = node.parentID.flatMap { forums[$0] }
    }
    return chain
  }

  // MARK: Threads and posts

  /// A new thread with its opening post. Returns the thread id.
  @discardableResult
  package func addThread(
    forum: Int, title: String, author: Int, body: String = "", date: Date? = nil, icon: FakeThreadIcon = .defaultIcon,
    sticky: Bool = false, closed: Bool = false, rating: (count: Int, average: Double)? = nil, id: Int? = nil
  ) throws -> Int {
    let threadID = try insertThread(
      forum: forum, title: title, author: author, date: date, icon: icon, sticky: sticky, closed: closed,
      rating: rating, id: id, generatedPosts: 0, replyAuthor: author)
    try addPost(thread: threadID, author: author, body: .bbcode(body), date: date)
    return threadID
  }

  /// Many threads at once, each with `postsPerThread` synthetic posts built only when a page shows them, so a
  /// benchmark can have thousands of bookmarked threads cheaply. Optionally bookmarked by `bookmarkedBy`.
  @discardableResult
  package func addGeneratedThreads(
    count: Int, forum: Int, author: Int, replyAuthor: Int? = nil, postsPerThread: Int = 1,
    titlePrefix: String = "Thread",
    bookmarkedBy: Int? = nil, star: StarColor = .orange, startDate: Date? = nil
  ) throws -> [Int] {
    guard count >= 0, postsPerThread >= 1 else { throw FakeForumError.invalidArgument("count or postsPerThread") }
    if let bookmarkedBy, users[bookmarkedBy] == nil { throw FakeForumError.unknownUser("\(bookmarkedBy)") }
    let start = minute(startDate ?? Date(timeIntervalSince1970: 1_700_000_000))
    var ids: [Int] = []
    ids.reserveCapacity(count)
    for n in 0..<count {
      let created = start.addingTimeInterval(Double(n) * 60)
      let threadID = try insertThread(
        forum: forum, title: "\(titlePrefix) \(n + 1)", author: author, date: created, icon: .defaultIcon,
        sticky: false, closed: false, rating: nil, id: nil, generatedPosts: postsPerThread,
        replyAuthor: replyAuthor ?? author)
      ids.append(threadID)
      if let bookmarkedBy { bookmarks[bookmarkedBy, default: [:]][threadID] = star }
    }
    return ids
  }

  private func insertThread(
    forum: Int, title: String, author: Int, date: Date?, icon: FakeThreadIcon, sticky: Bool, closed: Bool,
    rating: (count: Int, average: Double)?, id: Int?, generatedPosts: Int, replyAuthor: Int
  ) throws -> Int {
    guard let node = forums[forum], node.hasThreads else { throw FakeForumError.unknownForum(forum) }
    guard users[author] != nil else { throw FakeForumError.unknownUser("\(author)") }
    guard users[replyAuthor] != nil else { throw FakeForumError.unknownUser("\(replyAuthor)") }
    let threadID = id ?? nextThreadID
    guard threads[threadID] == nil else { throw FakeForumError.duplicateID("thread \(threadID)") }
    nextThreadID = max(nextThreadID, threadID + 1)
    let created = minute(date)
    let baseID = nextPostID
    if generatedPosts > 0 {
      nextPostID += generatedPosts
      generatedRanges.append((baseID..<(baseID + generatedPosts), threadID))
    }
    let lastGenerated = created.addingTimeInterval(Double(max(0, generatedPosts - 1)) * 60)
    threads[threadID] = FakeThread(
      id: threadID, forumID: forum, title: title, authorID: author, icon: icon, isSticky: sticky, isClosed: closed,
      ratingCount: rating?.count, ratingAverage: rating?.average, createdAt: created,
      generatedPostCount: generatedPosts, generatedPostBaseID: baseID, generatedReplyAuthorID: replyAuthor,
      postIDs: [], lastPostDate: lastGenerated,
      lastPostAuthorID: generatedPosts > 1 ? replyAuthor : author)
    threadIDsByForum[forum, default: []].append(threadID)
    return threadID
  }

  /// A reply at the end of a thread. Returns the post id.
  @discardableResult
  package func addPost(thread threadID: Int, author: Int, body: FakePostBody, date: Date? = nil) throws -> Int {
    guard var thread = threads[threadID] else { throw FakeForumError.unknownThread(threadID) }
    guard users[author] != nil else { throw FakeForumError.unknownUser("\(author)") }
    let postID = nextPostID
    nextPostID += 1
    let posted = minute(date)
    posts[postID] = FakePost(
      id: postID, threadID: threadID, authorID: author, date: posted, body: body, index: thread.postCount + 1)
    thread.postIDs.append(postID)
    if thread.postCount == 1 || posted >= thread.lastPostDate {
      thread.lastPostDate = posted
      thread.lastPostAuthorID = author
    }
    threads[threadID] = thread
    return postID
  }

  @discardableResult
  package func addPost(thread threadID: Int, author: Int, body: String, date: Date? = nil) throws -> Int {
    try addPost(thread: threadID, author: author, body: .bbcode(body), date: date)
  }

  package func thread(_ id: Int) -> FakeThread? { threads[id] }

  package func setClosed(thread: Int, _ closed: Bool) throws {
    guard threads[thread] != nil else { throw FakeForumError.unknownThread(thread) }
    threads[thread]?.isClosed = closed
  }

  package func setSticky(thread: Int, _ sticky: Bool) throws {
    guard threads[thread] != nil else { throw FakeForumError.unknownThread(thread) }
    threads[thread]?.isSticky = sticky
  }

  /// The post at a 1-based index of a thread, synthetic or stored.
  func post(in thread: FakeThread, index: Int) -> FakePost? {
    guard index >= 1, index <= thread.postCount else { return nil }
    if index <= thread.generatedPostCount {
      let isOpening = index == 1
      return FakePost(
        id: thread.generatedPostBaseID + index - 1, threadID: thread.id,
        authorID: isOpening ? thread.authorID : thread.generatedReplyAuthorID,
        date: thread.createdAt.addingTimeInterval(Double(index - 1) * 60),
        body: .bbcode("Generated post \(index) of \(thread.title)."), index: index)
    }
    return posts[thread.postIDs[index - thread.generatedPostCount - 1]]
  }

  /// Any post by id, synthetic or stored.
  package func post(_ id: Int) -> FakePost? {
    if let stored = posts[id] { return stored }
    // The ranges are allocated in increasing order: binary search for the last one starting at or before `id`.
    var low = 0
    var high = generatedRanges.count
    while low < high {
      let middle = (low + high) / 2
      if generatedRanges[middle].range.lowerBound <= id { low = middle + 1 } else { high = middle }
    }
    guard low > 0, generatedRanges[low - 1].range.contains(id), let thread = threads[generatedRanges[low - 1].threadID]
    else { return nil }
    let entry = generatedRanges[low - 1]
    return post(in: thread, index: id - entry.range.lowerBound + 1)
  }

  /// Threads of a forum as the forum lists them: stickies first, then newest last post first.
  func listedThreads(forum: Int) -> [FakeThread] {
    listedThreadIDs(forum: forum).compactMap { threads[$0] }
  }

  /// The ids of `listedThreads(forum:)`, sorted once per change of the forum's state.
  func listedThreadIDs(forum: Int) -> [Int] {
    cachedListing(.forum(forum)) {
      (threadIDsByForum[forum] ?? []).compactMap { id in
        threads[id].map { (isSticky: $0.isSticky, date: $0.lastPostDate, id: id) }
      }
      .sorted { a, b in
        if a.isSticky != b.isSticky { return a.isSticky }
        if a.date != b.date { return a.date > b.date }
        return a.id > b.id
      }
      .map(\.id)
    }
  }

  /// The listing for `key` from the cache, sorted by `sort` when anything changed since it was last sorted.
  private func cachedListing(_ key: ListingKey, _ sort: () -> [Int]) -> [Int] {
    if listingCacheVersion != listingVersion {
      listingCache = [:]
      listingCacheVersion = listingVersion
    }
    if let cached = listingCache[key] { return cached }
    let sorted = sort()
    listingCache[key] = sorted
    return sorted
  }

  // MARK: Bookmarks and read markers

  package func addBookmark(user: Int, thread: Int, star: StarColor = .orange) throws {
    guard users[user] != nil else { throw FakeForumError.unknownUser("\(user)") }
    guard threads[thread] != nil else { throw FakeForumError.unknownThread(thread) }
    bookmarks[user, default: [:]][thread] = star
  }

  package func removeBookmark(user: Int, thread: Int) {
    bookmarks[user]?[thread] = nil
  }

  package func bookmarks(user: Int) -> [Int: StarColor] { bookmarks[user] ?? [:] }

  /// Ids of the bookmarked threads as the bookmarks page lists them: newest last post first. Sorted once per change
  /// of threads or bookmarks.
  func bookmarkedThreadIDs(user: Int) -> [Int] {
    cachedListing(.bookmarks(user: user)) {
      (bookmarks[user] ?? [:]).keys.compactMap { id in threads[id].map { (date: $0.lastPostDate, id: id) } }
        .sorted { a, b in
          if a.date != b.date { return a.date > b.date }
          return a.id > b.id
        }
        .map(\.id)
    }
  }

  /// Index of the last post the user has read in the thread; nil if never opened.
  package func lastRead(user: Int, thread: Int) -> Int? { lastRead[user]?[thread] }

  package func setLastRead(user: Int, thread: Int, index: Int?) {
    lastRead[user, default: [:]][thread] = index
  }

  // MARK: Announcements

  package func addAnnouncement(title: String, author: Int, body: String, date: Date? = nil) throws {
    guard users[author] != nil else { throw FakeForumError.unknownUser("\(author)") }
    announcements.append(FakeAnnouncement(title: title, authorID: author, date: minute(date), body: .bbcode(body)))
  }

  package func removeAllAnnouncements() { announcements.removeAll() }

  // MARK: Sessions

  /// Forgets every session: the next request of every client is logged out (its `bbuserid` cookie is cleared).
  package func invalidateSessions() { sessions.removeAll() }

  func newSession(user: Int) -> String {
    let token = Self.randomHex(32)
    sessions[token] = user
    return token
  }

  /// The logged-in user of a request: `sessionhash` must be a live session and `bbuserid` must name its user.
  func sessionUser(cookies: [String: String]) -> FakeUser? {
    guard let token = cookies["sessionhash"], let userID = sessions[token],
      let cookieUser = cookies["bbuserid"].flatMap({ Int($0) }), cookieUser == userID
    else { return nil }
    return users[userID]
  }

  /// The per-user form key (the real one looks per-user: identical across forms).
  func formKey(user: Int) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "formkey-\(user)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(format: "%016llx%016llx", hash, hash ^ 0x5bd1_e995_5bd1_e995)
  }

  /// The `bbpassword` cookie: a hash, never the password.
  func passwordCookie(for user: FakeUser) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(user.id):\(user.password)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(format: "%016llx%016llx", hash, ~hash)
  }

  static func randomHex(_ length: Int) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<length).map { _ in digits[Int.random(in: 0..<16)] })
  }

  // MARK: Faults

  package func setFault(_ fault: Fault) {
    faultSettings.apply(fault)
    // The real banner always names the end; without one given, the probation ends in three days.
    if case .probation = fault, faultSettings.probationUntil == nil {
      faultSettings.probationUntil = minute(now().addingTimeInterval(3 * 86_400))
    }
  }

  /// The probation fault with the end its banner names.
  package func setProbation(until end: Date?) {
    faultSettings.apply(.probation)
    faultSettings.probationUntil = end.map { minute($0) } ?? minute(now().addingTimeInterval(3 * 86_400))
  }

  package func clearFault(_ kind: FaultKind) { faultSettings.clear(kind) }
  package func clearFaults() { faultSettings = FaultSettings() }
  package func faults() -> [Fault] { faultSettings.active }

  /// Consumes one 500 when that fault is on.
  func takeServerError() -> Bool {
    guard faultSettings.serverErrorsRemaining > 0 else { return false }
    if faultSettings.serverErrorsRemaining != Int.max { faultSettings.serverErrorsRemaining -= 1 }
    return true
  }

  // MARK: Request log

  func log(_ request: LoggedRequest) {
    requestLog.append(request)
    if requestLog.count > requestLogLimit { requestLog.removeFirst(requestLog.count - requestLogLimit) }
  }

  package func requests() -> [LoggedRequest] { requestLog }
  package func clearRequests() { requestLog.removeAll() }

  // MARK: Reset

  /// Back to an empty forum, then the seed.
  package func reset(seed: FakeForumSeed) throws {
    users = [:]
    forums = [:]
    groupIDs = []
    threads = [:]
    threadIDsByForum = [:]
    posts = [:]
    generatedRanges = []
    bookmarks = [:]
    lastRead = [:]
    announcements = []
    privateMessages = [:]
    sessions = [:]
    formCookies = [:]
    faultSettings = FaultSettings()
    requestLog = []
    nextUserID = 1000
    nextForumID = 500
    nextThreadID = 3_500_000
    nextPostID = 400_000_000
    nextPrivateMessageID = 4_700_000
    try seed.apply(to: self)
  }
}
