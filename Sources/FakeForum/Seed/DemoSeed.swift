import ForumModel
import Foundation

/// The `demo` seed: small but with every kind of content the bot has to handle.
enum DemoSeed {
  static let base = Date(timeIntervalSince1970: 1_705_320_000)  // Jan 15, 2024 06:00 America/Chicago

  static func at(minutes: Int) -> Date { base.addingTimeInterval(Double(minutes) * 60) }

  static func apply(to state: isolated ForumState) throws {
    let bot = try state.addUser(
      name: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword, id: FakeForumSeed.botUserID,
      regdate: Date(timeIntervalSince1970: 1_420_092_000))
    // Platinum, so the bot may search (`query.php`); `setPlatinum(user:_:)` takes it away.
    try state.setPlatinum(user: bot, true)
    let tink = try state.addUser(
      name: "Pickled Tink", password: "pickles", id: 1002, regdate: Date(timeIntervalSince1970: 1_335_589_200))
    let zoe = try state.addUser(
      name: "Zoë Québec", password: "poutine", id: 1003, regdate: Date(timeIntervalSince1970: 1_167_372_000))
    let admin = try state.addUser(
      name: "angerbot", password: "admin", id: 1004, regdate: Date(timeIntervalSince1970: 1_080_021_600),
      isAdmin: true)
    let mod = try state.addUser(
      name: "Majuju", password: "modpass", id: 1005, regdate: Date(timeIntervalSince1970: 1_157_000_000),
      isModerator: true)

    let main = try state.addGroup(title: "Main", id: 48)
    let gbs = try state.addForum(
      title: "General Bullshit", parent: main, id: 273, shortTitle: "GBS",
      icon: "https://fi.somethingawful.com/forumicons/gbs.gif", moderators: [mod])
    let clubhouse = try state.addForum(title: "The Cholesterol Clubhouse", parent: gbs, id: 669, moderators: [mod])
    let discussion = try state.addGroup(title: "Discussion", id: 51)
    let debate = try state.addForum(
      title: "Debate & Discussion", parent: discussion, id: 46, shortTitle: "D&D", moderators: [mod])
    let cobol = try state.addForum(
      title: "The Cavern of COBOL", parent: discussion, id: 202, shortTitle: "CoC",
      icon: "https://fi.somethingawful.com/forumicons/coc.gif")

    // A long thread: three pages at 40 a page.
    let devThread = try state.addThread(
      forum: cobol, title: "AwfulBot development thread: bridging the forums and chat", author: tink,
      body: "Welcome to the [b]AwfulBot[/b] thread. Post bugs here.", date: at(minutes: 0),
      icon: FakeThreadIcon(id: 167, imageURL: "http://fi.somethingawful.com/forums/posticons/shsc-code.gif"),
      rating: (count: 12, average: 4.5), id: 3_600_001)
    let authors = [zoe, tink, mod, bot, admin]
    var previousPostID: Int?
    for n in 2...95 {
      let author = authors[n % authors.count]
      var body = "Reply number \(n). "
      switch n % 7 {
      case 0: body += "Ça marche très bien, merci ! 🎉"
      case 1: body += "Check the docs at https://example.com/awfulbot/\(n) for details."
      case 2: body += "[spoiler]The cursor is the answer.[/spoiler]"
      case 3: body += "Line one\nLine two with “curly quotes” — and an em dash."
      case 4:
        if let previousPostID {
          body =
            "[quote=\"\(state.user(authors[(n - 1) % authors.count])?.name ?? "")\" post=\"\(previousPostID)\"]\nReply number \(n - 1).\n[/quote]\nAgreed with this. 👍"
        }
      case 5: body += "[img]https://i.example.com/screenshot-\(n).png[/img]"
      default: body += "Plain text with <angle brackets> & ampersands."
      }
      previousPostID = try state.addPost(thread: devThread, author: author, body: body, date: at(minutes: n * 37))
    }

    let quebec = try state.addThread(
      forum: debate, title: "Québec politics thread: «débat» 🍁", author: zoe,
      body: "Bienvenue! The Québec thread. Ünïcödé, emoji 😀 and windows-1252 quotes ‘like these’.",
      date: at(minutes: 10),
      icon: FakeThreadIcon(id: 361, imageURL: "http://fi.somethingawful.com/forums/posticons/dd-europe.gif"),
      id: 3_600_002)
    let firstReply = try state.addPost(
      thread: quebec, author: tink, body: "[url=https://example.com/news]A news link[/url] about the election.",
      date: at(minutes: 200))
    try state.addPost(
      thread: quebec, author: admin,
      body:
        "[quote=\"Pickled Tink\" post=\"\(firstReply)\"]\nA news link about the election.\n[/quote]\nPlease stay on topic. [spoiler]Or else.[/spoiler]",
      date: at(minutes: 260))
    try state.addPost(thread: quebec, author: mod, body: "日本語のテキストも大丈夫です。 🇨🇦", date: at(minutes: 3600))

    let desk = try state.addThread(
      forum: gbs, title: "Post your desk 📷", author: tink,
      body: "[img]https://i.example.com/desk.jpg[/img]\nMine is a mess.",
      date: at(minutes: 30),
      icon: FakeThreadIcon(id: 89, imageURL: "http://fi.somethingawful.com/forums/posticons/icons-08/humor.png"),
      id: 3_600_003)
    try state.addPost(thread: desk, author: zoe, body: "Nice desk! http://example.com/mydesk", date: at(minutes: 900))

    let closed = try state.addThread(
      forum: gbs, title: "This thread is closed", author: admin, body: "Nothing more to see here.",
      date: at(minutes: 40), closed: true, id: 3_600_004)
    try state.addPost(thread: closed, author: tink, body: "Last word.", date: at(minutes: 60))

    try state.addThread(
      forum: clubhouse, title: "What did you eat today?", author: zoe, body: "Poutine, obviously.",
      date: at(minutes: 500), id: 3_600_005)
    try state.addThread(
      forum: debate, title: "The Rules of Debate & Discussion", author: mod, body: "Be excellent to each other.",
      date: at(minutes: 5),
      icon: FakeThreadIcon(id: 82, imageURL: "http://forumimages.somethingawful.com/forums/posticons/icon23-banme.gif"),
      sticky: true, id: 3_600_006)

    try state.addBookmark(user: bot, thread: devThread, star: .orange)
    try state.addBookmark(user: bot, thread: quebec, star: .red)
    try state.addBookmark(user: bot, thread: desk, star: .orange)
    try state.addBookmark(user: bot, thread: closed, star: .red)
    state.setLastRead(user: bot, thread: devThread, index: 50)
    state.setLastRead(user: bot, thread: closed, index: 2)
    state.setLastRead(user: bot, thread: quebec, index: 2)

    // The forum's own attachments (`attachment.php`, logged-in sessions only): a desk and a cat, for posts that show
    // them (`[img]attachment.php?attachmentid=70001[/img]`).
    state.addAttachment(bytes: FakeImages.desk, contentType: "image/png", id: 70_001)
    state.addAttachment(bytes: FakeImages.cat, contentType: "image/gif", id: 70_002)

    try state.addAnnouncement(
      title: "Welcome to the Fake Forums!", author: admin,
      body: "This forum is an emulator for tests.\nThanks for shopping in advance!", date: at(minutes: -1440))

    // The Leper's Colony: two probations (one with markup in its reason), an autoban without a post, a ban.
    let devPosts = state.thread(devThread)?.postIDs ?? []
    try state.addPunishment(
      kind: .probation, user: tink, requester: mod, approver: mod,
      reasonHTML: "Posting screenshots of your desk in the COBOL thread.", probationLength: "6 hours",
      postID: devPosts.count > 5 ? devPosts[5] : nil, date: at(minutes: 300))
    try state.addPunishment(
      kind: .autoban, user: zoe, requester: admin, approver: admin,
      reasonHTML: "Breaking the rules with a <i>delicious</i> thread!", date: at(minutes: 700))
    try state.addPunishment(
      kind: .probation, user: zoe, requester: mod, approver: admin,
      reasonHTML: "<b>Stop</b> posting in French. See <a href=\"https://example.com/rules\">the rules</a>.",
      probationLength: "1 day", postID: state.thread(quebec)?.postIDs.last, date: at(minutes: 3700))
    try state.addPunishment(
      kind: .ban, user: tink, requester: mod, approver: admin, reasonHTML: "Ban evasion.",
      postID: state.thread(desk)?.postIDs.first, date: at(minutes: 4000))
  }
}
