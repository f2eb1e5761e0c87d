/// Turns a forum request into the forum's answer: applies the faults in force, then hands the request to the pages
/// its path belongs to. It runs on the state's actor (`isolated ForumState`) so a request sees, and changes, one
/// consistent forum.
struct ForumRouter: Sendable {
  private let account: AccountPages
  private let threadLists: ThreadListPages
  private let threads: ThreadPages
  private let replies: ReplyPages
  private let announcements: AnnouncementPages
  private let privateMessages: PrivateMessagePages
  private let search: SearchPages
  private let lepersColony: LepersColonyPages
  private let members: MemberPages
  private let attachments: AttachmentPages

  init(configuration: FakeForumConfiguration) {
    let context = PageContext(configuration: configuration)
    account = AccountPages(context: context)
    threadLists = ThreadListPages(context: context)
    threads = ThreadPages(context: context)
    replies = ReplyPages(context: context)
    announcements = AnnouncementPages(context: context)
    privateMessages = PrivateMessagePages(context: context)
    search = SearchPages(context: context)
    lepersColony = LepersColonyPages(context: context)
    members = MemberPages(context: context)
    attachments = AttachmentPages(context: context)
  }

  /// The forum's answer to one request, with the faults in force applied. The delay fault is applied by the caller
  /// (outside the actor, so a slow response does not hold up the whole forum).
  func respond(to request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    // In front of everything else, as Cloudflare stands in front of the forum.
    if let wall = state.faultSettings.wall, wall.covers(request.path) { return WallPages.response(wall) }
    if state.takeServerError() {
      return ForumResponse.html(
        "<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>",
        status: 500)
    }
    if state.faultSettings.databaseUnavailable { return .html(ErrorPages.databaseUnavailable()) }
    var response = route(request, state: state)
    if state.faultSettings.truncatedHTML, response.isHTML {
      response.body = Array(response.body.prefix(response.body.count / 2))
    }
    return response
  }

  private func route(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    switch request.path {
    case "/account.php": return account.account(request, state: state)
    case "/index.php", "/": return account.index(request, state: state)
    case "/bookmarkthreads.php": return threadLists.bookmarkThreads(request, state: state)
    case "/forumdisplay.php": return threadLists.forumDisplay(request, state: state)
    case "/showthread.php": return threads.showThread(request, state: state)
    case "/newreply.php": return replies.newReply(request, state: state)
    case "/announcement.php": return announcements.announcementPage(request, state: state)
    case "/threadrate.php": return threadLists.rateThread(request, state: state)
    case "/private.php": return privateMessages.privateMessagesPage(request, state: state)
    case "/query.php": return search.query(request, state: state)
    case "/banlist.php": return lepersColony.banlist(request, state: state)
    case "/member.php": return members.member(request, state: state)
    case "/attachment.php": return attachments.attachment(request, state: state)
    default:
      return .html(
        "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>", status: 404)
    }
  }
}
