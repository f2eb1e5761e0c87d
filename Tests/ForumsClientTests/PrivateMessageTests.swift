import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

@Suite("Private messages", .serialized)
struct PrivateMessageTests {
  static let bot = FakeForumSeed.botUserID
  static let tricky = "Привет! 日本語, Ça marche — “quoted” 😀🇨🇦\nSecond line ✓"

  /// Polling the Inbox costs one request when the session is live: `GET private.php?folderid=0`, nothing else.
  @Test func readingTheInboxIsOneRequest() async throws {
    try await withFakeForum { forum in
      let older = try await forum.state.sendPrivateMessage(
        from: 1002, to: Self.bot, title: "Older", body: "b", date: Date(timeIntervalSince1970: 1_700_000_000))
      try await forum.state.setPrivateMessageRead(older, true)
      let newer = try await forum.state.sendPrivateMessage(
        from: 1003, to: Self.bot, title: "Newer 😀", body: "b", date: Date(timeIntervalSince1970: 1_700_000_580))
      try await forum.client.logIn()
      await forum.state.clearRequests()

      let inbox = try await forum.client.privateMessageFolder()
      let requests = await forum.state.requests()
      #expect(requests.count == 1)
      #expect(requests.first?.method == "GET")
      #expect(requests.first?.path == "/private.php")
      #expect(requests.first?.query == [LoggedRequest.Field(name: "folderid", value: "0")])

      #expect(inbox.current?.name == "Inbox")
      #expect(inbox.messages.map(\.id) == ["\(newer)", "\(older)"])
      #expect(inbox.messages.map(\.status.hasBeenSeen) == [false, true])
      #expect(inbox.messages.first?.subject == "Newer 😀")
      #expect(inbox.messages.first?.sender?.name == "Zoë Québec")
      #expect(inbox.messages.first?.sentDate == Date(timeIntervalSince1970: 1_700_000_580))
      #expect(inbox.probation == nil)

      // Nothing new: the same single request, and nothing was marked read.
      _ = try await forum.client.privateMessageFolder()
      #expect(await forum.state.requests().count == 2)
      #expect(await forum.state.privateMessage(newer)?.isRead == false)
    }
  }

  @Test func sentItemsAreAnotherFolder() async throws {
    try await withFakeForum { forum in
      try await forum.state.sendPrivateMessage(
        from: Self.bot, to: 1002, title: "Mine", body: .bbcode("b"), saveCopy: true)
      let sent = try await forum.client.privateMessageFolder(id: "-1")
      #expect(sent.current == PrivateMessageFolder.Entry(id: "-1", name: "Sent Items"))
      #expect(sent.messages.map(\.subject) == ["Mine"])
    }
  }

  @Test func readingAMessageMarksItRead() async throws {
    try await withFakeForum { forum in
      let id = try await forum.state.sendPrivateMessage(
        from: 1002, to: Self.bot, title: "Can you watch my thread?", body: "It is [b]3600003[/b].\nThanks!",
        date: Date(timeIntervalSince1970: 1_710_000_000))
      let message = try await forum.client.privateMessagePage(id: "\(id)")
      #expect(message.id == "\(id)")
      #expect(message.subject == "Can you watch my thread?")
      #expect(message.author?.name == "Pickled Tink")
      #expect(message.author?.id == "1002")
      #expect(message.sentDate == Date(timeIntervalSince1970: 1_710_000_000))
      #expect(plainText(message.body) == "It is 3600003.\nThanks!")
      #expect(await forum.state.privateMessage(id)?.isRead == true)
      #expect(try await forum.client.privateMessageFolder().messages.first?.status.hasBeenSeen == true)
    }
  }

  @Test func someoneElsesMessageIsRefused() async throws {
    try await withFakeForum { forum in
      let theirs = try await forum.state.sendPrivateMessage(from: Self.bot, to: 1002, title: "t", body: "b")
      let error = await clientError { _ = try await forum.client.privateMessagePage(id: "\(theirs)") }
      // "Invalid private message specified" is the forum's not-found for private messages.
      guard case .notFound(let notFound) = error else {
        Issue.record("expected .notFound, got \(String(describing: error))")
        return
      }
      #expect(notFound.subject == .privateMessage)
      #expect(notFound.message.contains("Invalid private message"))
    }
  }

  @Test func sendingPostsTheFormsFieldsInWindows1252() async throws {
    try await withFakeForum { forum in
      try await forum.client.sendPrivateMessage(to: "pickled tink", subject: "Hello «there» 👋", text: Self.tricky)

      let delivered = try #require(await forum.state.privateMessages(user: 1002, folder: .inbox).first)
      #expect(delivered.fromID == Self.bot)
      #expect(delivered.title == "Hello «there» 👋")
      #expect(delivered.body == .bbcode(Self.tricky))
      #expect(await forum.state.privateMessages(user: Self.bot, folder: .sent).count == 1)

      let requests = await forum.requests(to: "/private.php")
      #expect(requests.map(\.method) == ["GET", "POST"])
      #expect(requests[0].queryValue("action") == "newmessage")
      let post = requests[1]
      #expect(post.formValue("action") == "dosend")
      #expect(post.formValue("touser") == "pickled tink")
      #expect(post.formValue("title") == "Hello «there» 👋")
      #expect(post.formValue("iconid") == "0")
      #expect(post.formValue("savecopy") == "yes")
      #expect(post.formValue("submit") == "Send Message")
      #expect(post.formValue("message") == Self.tricky.replacingOccurrences(of: "\n", with: "\r\n"))
      #expect(post.formValue("prevmessageid") == "")
      #expect(post.formValue("signature") == nil)
    }
  }

  @Test func replyingGoesToTheSenderAndMarksTheMessageReplied() async throws {
    try await withFakeForum { forum in
      let original = try await forum.state.sendPrivateMessage(
        from: 1003, to: Self.bot, title: "Question", body: "Is the bot up?",
        date: Date(timeIntervalSince1970: 1_352_429_760))
      try await forum.client.replyToPrivateMessage(id: "\(original)", text: "Yes, it is.")

      let delivered = try #require(await forum.state.privateMessages(user: 1003, folder: .inbox).first)
      #expect(delivered.fromID == Self.bot)
      #expect(delivered.title == "Re: Question")
      #expect(delivered.body == .bbcode("Yes, it is."))
      #expect(await forum.state.privateMessage(original)?.wasRepliedTo == true)

      let post = try #require(await forum.requests(to: "/private.php").last)
      #expect(post.method == "POST")
      #expect(post.formValue("prevmessageid") == "\(original)")
      #expect(post.formValue("forward") == "")
      #expect(post.formValue("touser") == "Zoë Québec")
      #expect(try await forum.client.privateMessageFolder().messages.first?.status.wasRepliedTo == true)
    }
  }

  @Test func replyingCanKeepTheQuoteAndSetTheSubject() async throws {
    try await withFakeForum { forum in
      let original = try await forum.state.sendPrivateMessage(
        from: 1002, to: Self.bot, title: "Question", body: "Is the bot up?",
        date: Date(timeIntervalSince1970: 1_352_429_760))
      try await forum.client.replyToPrivateMessage(
        id: "\(original)", text: "Yes.", subject: "About the bot", quotingOriginal: true)
      let delivered = try #require(await forum.state.privateMessages(user: 1002, folder: .inbox).first)
      #expect(delivered.title == "About the bot")
      #expect(
        delivered.body
          == .bbcode("[quote]\nPickled Tink wrote on Nov  8, 2012 20:56:\nIs the bot up?\n[/quote]\n\nYes."))
    }
  }

  @Test func anUnknownRecipientIsTheForumsRefusalAndIsNotRetried() async throws {
    try await withFakeForum { forum in
      let error = await clientError {
        try await forum.client.sendPrivateMessage(to: "nobody at all", subject: "Hi", text: "hello")
      }
      guard case .forumRefused(_, let message) = error else {
        Issue.record("expected .forumRefused, got \(String(describing: error))")
        return
      }
      #expect(message.contains("nobody at all"))
      #expect(await forum.requests(to: "/private.php").filter { $0.method == "POST" }.count == 1)
      #expect(await forum.state.allPrivateMessages().isEmpty)
    }
  }

  @Test func anExpiredSessionLogsInAgain() async throws {
    try await withFakeForum { forum in
      try await forum.state.sendPrivateMessage(from: 1002, to: Self.bot, title: "t", body: "b")
      try await forum.client.logIn()
      await forum.state.invalidateSessions()
      let inbox = try await forum.client.privateMessageFolder()
      #expect(inbox.messages.count == 1)
      #expect(await forum.requests(to: "/account.php").count == 2)
    }
  }

  /// The engine's view of the inbox (`Forum`, which the client serves itself): headers mapped from the folder, and a
  /// message with its text, which reading marks read.
  @Test func theEngineReadsTheInboxThroughTheForumSeam() async throws {
    try await withFakeForum { forum in
      // On a whole minute: the folder shows no seconds.
      let sent = Date(timeIntervalSince1970: 1_700_000_580)
      let id = try await forum.state.sendPrivateMessage(
        from: 1003, to: Self.bot, title: "Seam", body: "Hello [b]there[/b]", date: sent)
      let seam: any Forum = forum.client
      let inbox = try await seam.privateMessages()
      #expect(inbox.map(\.id) == ["\(id)"])
      #expect(inbox.first?.subject == "Seam")
      #expect(inbox.first?.sender == "Zoë Québec")
      #expect(inbox.first?.sentDate == sent)
      #expect(inbox.first?.isUnread == true)
      let message = try await seam.privateMessage(id: "\(id)")
      #expect(message.id == "\(id)" && message.subject == "Seam" && message.sender == "Zoë Québec")
      #expect(!message.body.isEmpty)
      #expect(try await seam.privateMessages().first?.isUnread == false)
    }
  }
}
