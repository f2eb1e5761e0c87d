import ForumModel
import Foundation

/// Everything the emulated forum knows, in memory: accounts, forums, threads and posts, bookmarks and read markers,
/// announcements, private messages, sessions, faults and the request log. It knows nothing of HTTP or HTML.
///
/// Tests and the app change it through the `package` methods while the server runs. The pages (`ForumRouter`) run on
/// this actor through an `isolated` parameter, so each request sees and changes one consistent forum; they read the
/// stores below directly, but change them only through these methods, which keep the stores consistent with each
/// other (a post needs its thread and its author, a bookmark its user and thread, …).
package actor ForumState {
  /// The forum's zone: registration dates are kept at its midnight.
  private let timeZone: TimeZone
  /// The forum's "now", for whatever does not say when it happened.
  let now: @Sendable () -> Date

  private(set) var users = UserStore()
  private(set) var forums = ForumTree()
  private(set) var threads = ThreadStore() {
    didSet { sortedListings.removeAll() }
  }
  private(set) var bookmarks = BookmarkStore() {
    didSet { sortedListings.removeAll() }
  }
  /// Accounts whose bookmarks page is sorted otherwise than newest last post first (`setBookmarkOrder`).
  private var bookmarkOrders: [Int: BookmarkOrder] = [:] {
    didSet { sortedListings.removeAll() }
  }
  private(set) var readMarkers = ReadMarkerStore()
  private(set) var announcements: [FakeAnnouncement] = []
  private(set) var privateMessages = PrivateMessageStore()
  private(set) var punishments = PunishmentStore()
  private(set) var sessions = SessionStore()
  /// The files `attachment.php` serves (`ForumState+Attachments.swift`).
  var attachments = AttachmentStore()
  /// The searches made (`query.php`), the search limit and the results' page size (`ForumState+Search.swift`).
  var searches = SearchStore()
  private(set) var faultSettings = FaultSettings()
  private(set) var requestLog: RequestLog
  /// The faults the forum starts with and returns to on reset (the configuration's flood check).
  private let initialFaults: FaultSettings
  /// When each account last replied through the reply form, to the second, for the flood check (post dates are
  /// kept to the minute).
  private var lastReplyTimes: [Int: Date] = [:]

  /// Sorted thread ids of bookmark lists and forum lists, dropped by any change to threads or bookmarks: a
  /// 20,000-bookmark account is read 40 threads a page, and sorting every thread for each page made listing the
  /// whole account quadratic.
  private var sortedListings: [ListingKey: [Int]] = [:]

  private enum ListingKey: Hashable {
    case bookmarks(user: Int)
    case forum(Int)
  }

  /// A forum filled with the configuration's seed. Async because seeding runs on the actor.
  package init(configuration: FakeForumConfiguration) async throws {
    timeZone = configuration.timeZone
    now = configuration.now
    requestLog = RequestLog(limit: configuration.requestLogLimit)
    var initialFaults = FaultSettings()
    initialFaults.floodSeconds = configuration.floodSeconds
    self.initialFaults = initialFaults
    faultSettings = initialFaults
    try configuration.seed.apply(to: self)
  }

  /// The forum prints minutes: dates are kept at whole minutes so what a scraper reads equals what was stored.
  private func minute(_ date: Date?) -> Date {
    let value = (date ?? now()).timeIntervalSince1970
    return Date(timeIntervalSince1970: (value / 60).rounded(.down) * 60)
  }

  /// Registration dates are printed as days: kept at midnight in the forum's zone.
  private func startOfDay(_ date: Date) -> Date {
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
    try users.add(
      id: id, name: name, password: password,
      regdate: startOfDay(regdate ?? Date(timeIntervalSince1970: 1_167_372_000)),
      isAdmin: isAdmin, isModerator: isModerator, postsPerPage: postsPerPage)
  }

  package func userID(named name: String) -> Int? { users.userID(named: name) }

  package func user(_ id: Int) -> FakeUser? { users.user(id) }

  package func setBanned(user: Int, _ banned: Bool) throws {
    try users.update(user) { $0.isBanned = banned }
  }

  /// Makes an account Platinum (it may search) or not.
  package func setPlatinum(user: Int, _ platinum: Bool) throws {
    try users.update(user) { $0.isPlatinum = platinum }
  }

  package func setPostsPerPage(user: Int, _ perPage: Int) throws {
    try users.update(user) { $0.postsPerPage = max(1, perPage) }
  }

  // MARK: Forums

  /// A top-level group (`has_threads == false`), e.g. "Main" or "Discussion".
  @discardableResult
  package func addGroup(title: String, id: Int? = nil) throws -> Int {
    try forums.addGroup(title: title, id: id)
  }

  /// A forum inside a group, or a subforum inside a forum.
  @discardableResult
  package func addForum(
    title: String, parent: Int, id: Int? = nil, shortTitle: String? = nil, icon: String = "", moderators: [Int] = []
  ) throws -> Int {
    try forums.addForum(
      title: title, parent: parent, id: id, shortTitle: shortTitle, icon: icon, moderators: moderators)
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
    if let bookmarkedBy, !users.contains(bookmarkedBy) { throw FakeForumError.unknownUser("\(bookmarkedBy)") }
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
      if let bookmarkedBy { bookmarks.set(star, user: bookmarkedBy, thread: threadID) }
    }
    return ids
  }

  private func insertThread(
    forum: Int, title: String, author: Int, date: Date?, icon: FakeThreadIcon, sticky: Bool, closed: Bool,
    rating: (count: Int, average: Double)?, id: Int?, generatedPosts: Int, replyAuthor: Int
  ) throws -> Int {
    guard let node = forums.node(forum), node.hasThreads else { throw FakeForumError.unknownForum(forum) }
    guard users.contains(author) else { throw FakeForumError.unknownUser("\(author)") }
    guard users.contains(replyAuthor) else { throw FakeForumError.unknownUser("\(replyAuthor)") }
    return try threads.insert(
      id: id, forum: forum, title: title, author: author, createdAt: minute(date), icon: icon, sticky: sticky,
      closed: closed, rating: rating, generatedPosts: generatedPosts, replyAuthor: replyAuthor)
  }

  /// A reply at the end of a thread. Returns the post id.
  @discardableResult
  package func addPost(thread threadID: Int, author: Int, body: FakePostBody, date: Date? = nil) throws -> Int {
    guard threads.thread(threadID) != nil else { throw FakeForumError.unknownThread(threadID) }
    guard users.contains(author) else { throw FakeForumError.unknownUser("\(author)") }
    return try threads.appendPost(thread: threadID, author: author, body: body, date: minute(date))
  }

  @discardableResult
  package func addPost(thread threadID: Int, author: Int, body: String, date: Date? = nil) throws -> Int {
    try addPost(thread: threadID, author: author, body: .bbcode(body), date: date)
  }

  /// A reply as the forum's reply form makes it: the post, then the thread bookmarked if asked (an existing star is
  /// kept) and read to its end. Returns the post id.
  func postReply(thread threadID: Int, author: Int, message: String, bookmark: Bool) throws -> Int {
    let postID = try addPost(thread: threadID, author: author, body: .bbcode(message))
    if bookmark, bookmarks.star(user: author, thread: threadID) == nil {
      bookmarks.set(.orange, user: author, thread: threadID)
    }
    if let count = threads.thread(threadID)?.postCount {
      readMarkers.setLastRead(count, user: author, thread: threadID)
    }
    lastReplyTimes[author] = now()
    return postID
  }

  /// The flood check: how many more seconds `user` must wait before replying again (at least 1, as the forum never
  /// says "0 seconds"), or nil when a reply is taken now.
  func floodWait(user: Int) -> (limit: Int, remaining: Int)? {
    let limit = faultSettings.floodSeconds
    guard limit > 0, let last = lastReplyTimes[user] else { return nil }
    let elapsed = now().timeIntervalSince(last)
    guard elapsed < Double(limit) else { return nil }
    return (limit, max(1, Int((Double(limit) - elapsed).rounded(.up))))
  }

  package func thread(_ id: Int) -> FakeThread? { threads.thread(id) }

  /// Replaces a stored post's body, as its author's edit does.
  package func editPost(_ postID: Int, body: FakePostBody) throws {
    try threads.editPost(postID, body: body)
  }

  /// Deletes a stored post as a moderator does (later posts move up an index; the thread's last post goes back when
  /// it was the last). Returns the thread id.
  @discardableResult
  package func deletePost(_ postID: Int) throws -> Int {
    try threads.deletePost(postID)
  }

  package func setClosed(thread: Int, _ closed: Bool) throws {
    try threads.update(thread) { $0.isClosed = closed }
  }

  /// One vote, 1 to 5 (out-of-range votes count as the nearest end), folded into the thread's average.
  func rate(thread: Int, vote: Int) throws {
    let vote = Double(max(1, min(5, vote)))
    try threads.update(thread) { thread in
      let count = thread.ratingCount ?? 0
      let average = thread.ratingAverage ?? 0
      thread.ratingCount = count + 1
      thread.ratingAverage = (average * Double(count) + vote) / Double(count + 1)
    }
  }

  /// Any post by id, synthetic or stored.
  package func post(_ id: Int) -> FakePost? { threads.post(id) }

  /// The post at `index` (1-based) in `thread`, stored or synthetic.
  func post(in thread: FakeThread, index: Int) -> FakePost? { threads.post(in: thread, index: index) }

  /// Threads of a forum as the forum lists them: stickies first, then newest last post first.
  func listedThreads(forum: Int) -> [FakeThread] {
    sortedListing(.forum(forum)) { threads.sortedThreadIDs(forum: forum) }.compactMap { threads.thread($0) }
  }

  /// The listing for `key`, sorted by `sort` unless sorted since the last change to threads or bookmarks.
  private func sortedListing(_ key: ListingKey, _ sort: () -> [Int]) -> [Int] {
    if let cached = sortedListings[key] { return cached }
    let sorted = sort()
    sortedListings[key] = sorted
    return sorted
  }

  // MARK: Bookmarks and read markers

  package func addBookmark(user: Int, thread: Int, star: StarColor = .orange) throws {
    guard users.contains(user) else { throw FakeForumError.unknownUser("\(user)") }
    guard threads.thread(thread) != nil else { throw FakeForumError.unknownThread(thread) }
    bookmarks.set(star, user: user, thread: thread)
  }

  package func removeBookmark(user: Int, thread: Int) {
    bookmarks.remove(user: user, thread: thread)
  }

  package func bookmarks(user: Int) -> [Int: StarColor] { bookmarks.stars(user: user) }

  /// Ids of the bookmarked threads as the bookmarks page lists them: newest last post first, unless the account
  /// sorts them otherwise.
  func bookmarkedThreadIDs(user: Int) -> [Int] {
    sortedListing(.bookmarks(user: user)) {
      threads.sorted(bookmarks.stars(user: user).keys, by: bookmarkOrders[user] ?? .lastPost)
    }
  }

  /// Sorts the user's bookmarks page otherwise than the forum does (a sort preference on the account).
  package func setBookmarkOrder(user: Int, _ order: BookmarkOrder) throws {
    guard users.contains(user) else { throw FakeForumError.unknownUser("\(user)") }
    bookmarkOrders[user] = order == .lastPost ? nil : order
  }

  /// Index of the last post the user has read in the thread; nil if never opened.
  package func lastRead(user: Int, thread: Int) -> Int? { readMarkers.lastRead(user: user, thread: thread) }

  package func setLastRead(user: Int, thread: Int, index: Int?) {
    readMarkers.setLastRead(index, user: user, thread: thread)
  }

  // MARK: Announcements

  package func addAnnouncement(title: String, author: Int, body: String, date: Date? = nil) throws {
    guard users.contains(author) else { throw FakeForumError.unknownUser("\(author)") }
    announcements.append(FakeAnnouncement(title: title, authorID: author, date: minute(date), body: .bbcode(body)))
  }

  // MARK: Private messages

  /// Delivers a private message: the recipient's copy goes to their Inbox, unread, and its id is returned. With
  /// `saveCopy`, the sender also keeps a read copy in Sent Items (as the forum's "Save a copy" box does).
  @discardableResult
  package func sendPrivateMessage(
    from sender: Int, to recipient: Int, title: String, body: FakePostBody, date: Date? = nil, iconID: Int? = nil,
    saveCopy: Bool = false
  ) throws -> Int {
    guard users.contains(sender) else { throw FakeForumError.unknownUser("\(sender)") }
    guard users.contains(recipient) else { throw FakeForumError.unknownUser("\(recipient)") }
    guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw FakeForumError.invalidArgument("a private message needs a title")
    }
    return privateMessages.deliver(
      from: sender, to: recipient, title: title, body: body, date: minute(date), iconID: iconID, saveCopy: saveCopy)
  }

  @discardableResult
  package func sendPrivateMessage(
    from sender: Int, to recipient: Int, title: String, body: String, date: Date? = nil
  ) throws -> Int {
    try sendPrivateMessage(from: sender, to: recipient, title: title, body: .bbcode(body), date: date)
  }

  package func privateMessage(_ id: Int) -> FakePrivateMessage? { privateMessages.message(id) }

  /// A user's messages in one folder (every folder when nil), newest first.
  package func privateMessages(user: Int, folder: FakePrivateMessage.Folder? = nil) -> [FakePrivateMessage] {
    privateMessages.messages(owner: user, folder: folder)
  }

  /// Every private message, oldest first (the admin API's listing).
  package func allPrivateMessages() -> [FakePrivateMessage] { privateMessages.all }

  package func setPrivateMessageRead(_ id: Int, _ read: Bool) throws {
    try privateMessages.update(id) { $0.isRead = read }
  }

  /// A message was replied to or forwarded. One status per message, as on the forum: either implies read.
  func markPrivateMessageAnswered(_ id: Int, forwarded: Bool) throws {
    try privateMessages.update(id) { message in
      message.isRead = true
      if forwarded { message.wasForwarded = true } else { message.wasRepliedTo = true }
    }
  }

  // MARK: Leper's Colony

  /// A new entry in the Leper's Colony. A probation with a `probationLength` ("6 hours") gets the sentence the forum
  /// appends to its reason ("User loses posting privileges for 6 hours."). Returns the entry's id.
  @discardableResult
  package func addPunishment(
    kind: FakePunishment.Kind, user: Int, requester: Int, approver: Int?, reasonHTML: String,
    probationLength: String? = nil, postID: Int? = nil, date: Date? = nil
  ) throws -> Int {
    for id in [user, requester] + (approver.map { [$0] } ?? []) where !users.contains(id) {
      throw FakeForumError.unknownUser("\(id)")
    }
    var reason = reasonHTML
    if kind == .probation, let length = probationLength?.trimmingCharacters(in: .whitespacesAndNewlines),
      !length.isEmpty
    {
      reason += (reason.isEmpty ? "" : "  ") + "User loses posting privileges for \(HTMLText.escape(length))."
    }
    return punishments.add(
      kind: kind, date: minute(date), postID: postID, subjectID: user, reasonHTML: reason, requesterID: requester,
      approverID: approver)
  }

  /// The Leper's Colony (only `user`'s rap sheet when given), newest first.
  package func lepersColony(user: Int? = nil) -> [FakePunishment] { punishments.listed(subjectID: user) }

  // MARK: Sessions

  /// Forgets every session: the next request of every client is logged out (its `bbuserid` cookie is cleared).
  package func invalidateSessions() { sessions.endAll() }

  /// Logs the user in. Returns the session token.
  func startSession(user: Int) -> String { sessions.start(user: user) }

  func endSession(token: String) { sessions.end(token: token) }

  /// A form cookie for a reply form shown to the user.
  func issueFormCookie(user: Int) -> String { sessions.issueFormCookie(user: user) }

  func useFormCookie(_ cookie: String) { sessions.useFormCookie(cookie) }

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
  func takeServerError() -> Bool { faultSettings.takeServerError() }

  /// How long the delay fault holds each response, in milliseconds (0 when off).
  func responseDelayMilliseconds() -> Int { faultSettings.delayMilliseconds }

  // MARK: Request log

  func log(_ request: LoggedRequest) { requestLog.append(request) }

  package func requests() -> [LoggedRequest] { requestLog.entries }
  package func clearRequests() { requestLog.removeAll() }

  // MARK: Reset

  /// Back to an empty forum, then the seed; faults as the configuration started them (its flood check).
  package func reset(seed: FakeForumSeed) throws {
    users = UserStore()
    forums = ForumTree()
    threads = ThreadStore()
    bookmarks = BookmarkStore()
    bookmarkOrders = [:]
    readMarkers = ReadMarkerStore()
    announcements = []
    privateMessages = PrivateMessageStore()
    punishments = PunishmentStore()
    sessions = SessionStore()
    attachments = AttachmentStore()
    searches = SearchStore()
    faultSettings = initialFaults
    lastReplyTimes = [:]
    requestLog = RequestLog(limit: requestLog.limit)
    sortedListings = [:]
    try seed.apply(to: self)
  }
}
