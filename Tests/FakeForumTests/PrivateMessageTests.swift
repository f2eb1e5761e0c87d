import AwfulScraping
import ForumModel
import Foundation
import Testing

@testable import FakeForum

/// `private.php` and `/_fake/pms`: what the emulator renders, the project's private-message scrapers read back.
@Suite("FakeForum private messages")
struct PrivateMessageTests {
  static let bot = FakeForumSeed.botUserID
  static let trickyTitle = "Ünïcödé «PM» — ‘quotes’ & <tags> 😀"
  static let trickyBody = "Ça marche: “smart quotes”, € sign, emoji 😀, 日本語.\nSecond line [b]bold[/b]"

  func charset(_ reply: ForumTestClient.Reply) -> String? {
    reply.contentType?.components(separatedBy: "charset=").last
  }

  func folder(_ client: ForumTestClient, _ query: String = "") async throws -> PrivateMessageFolder {
    let reply = try await client.get("/private.php\(query)")
    return try PrivateMessageFolderScraper().scrape(
      data: Data(reply.body), url: client.baseURL, charset: charset(reply))
  }

  func message(_ client: ForumTestClient, _ id: Int) async throws -> PrivateMessage {
    let reply = try await client.get("/private.php?action=show&privatemessageid=\(id)")
    return try PrivateMessageScraper().scrape(data: Data(reply.body), url: client.baseURL, charset: charset(reply))
  }

  func json(_ reply: ForumTestClient.Reply) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(reply.body))
  }

  @Test func adminCallDeliversAPrivateMessageThatReadsBackUnreadThenRead() async throws {
    try await withForum { server, client throws in
      let date = 1_710_000_000.0
      let body = try JSONSerialization.data(withJSONObject: [
        "to": "awfulbot", "from": 1003, "title": Self.trickyTitle, "body": Self.trickyBody, "date": date,
      ])
      let sent = try await client.admin.send("POST", "/_fake/pms", json: String(decoding: body, as: UTF8.self))
      #expect(sent.status == 200)
      let id = try #require((try sent.json() as? [String: Int])?["privateMessageID"])
      let stored = try #require(await server.state.privateMessage(id))
      #expect(stored.ownerID == Self.bot)
      #expect(stored.folder == .inbox)
      #expect(!stored.isRead)

      _ = try await client.logIn()
      let inbox = try await folder(client)
      #expect(inbox.current == PrivateMessageFolder.Entry(id: "0", name: "Inbox"))
      #expect(inbox.folders.map(\.id) == ["0", "-1"])
      #expect(!inbox.isOnlyShowingLastFiftyMessages)
      #expect(inbox.probation == nil)
      let row = try #require(inbox.messages.first)
      #expect(inbox.messages.count == 1)
      #expect(row.id == "\(id)")
      #expect(row.subject == Self.trickyTitle)
      #expect(row.sender == ForumUserReference(name: "Zoë Québec", id: nil))
      #expect(row.sentDate == Date(timeIntervalSince1970: date))
      #expect(!row.status.hasBeenSeen)
      // Reading the folder does not mark anything read.
      #expect(await server.state.privateMessage(id)?.isRead == false)

      let shown = try await message(client, id)
      #expect(shown.id == "\(id)")
      #expect(shown.subject == Self.trickyTitle)
      #expect(shown.author?.name == "Zoë Québec")
      #expect(shown.author?.id == "1003")
      #expect(shown.sentDate == Date(timeIntervalSince1970: date))
      #expect(plainText(shown.body).hasPrefix("Ça marche: “smart quotes”, € sign, emoji 😀, 日本語.\nSecond line bold"))
      #expect(await server.state.privateMessage(id)?.isRead == true)
      #expect(try await folder(client).messages.first?.status.hasBeenSeen == true)
    }
  }

  @Test func adminCallTakesUsersByIdOrNameAndRejectsUnknownOnes() async throws {
    try await withForum { server, client throws in
      let byID = try await client.admin.send(
        "POST", "/_fake/pms", json: #"{"to": 1001, "from": "Pickled Tink", "title": "hi", "body": "b"}"#)
      let id = try #require((try byID.json() as? [String: Int])?["privateMessageID"])
      #expect(await server.state.privateMessage(id)?.fromID == 1002)
      let unknown = try await client.admin.send(
        "POST", "/_fake/pms", json: #"{"to": "nobody", "from": 1002, "title": "hi", "body": "b"}"#)
      #expect(unknown.status == 404)
      #expect(unknown.text.contains("no user nobody"))
      let listed = try #require(try json(try await client.get("/_fake/pms?user=awfulbot")) as? [[String: Any]])
      #expect(listed.map { $0["id"] as? Int } == [id])
      #expect(listed.first?["from"] as? String == "Pickled Tink")
      #expect(listed.first?["isRead"] as? Bool == false)
      // Admin requests are not in the forum's request log.
      #expect(await server.state.requests().isEmpty)
    }
  }

  @Test func replyFormQuotesTheMessageAndSendingMarksItReplied() async throws {
    try await withForum { server, client throws in
      let original = try await server.state.sendPrivateMessage(
        from: 1002, to: Self.bot, title: "Awful app", body: "Thanks for the [i]bot[/i]!",
        date: Date(timeIntervalSince1970: 1_352_429_760))
      _ = try await client.logIn()
      let formReply = try await client.get("/private.php?action=newmessage&privatemessageid=\(original)")
      let form = try ReplyFormScraper().scrape(
        data: Data(formReply.body), url: client.baseURL, charset: charset(formReply))
      func value(_ name: String) -> String? { form.fields.first { $0.name == name }?.value }
      #expect(form.action == "private.php")
      #expect(value("action") == "dosend")
      #expect(value("prevmessageid") == "\(original)")
      #expect(value("forward") == "")
      #expect(value("touser") == "Pickled Tink")
      #expect(value("title") == "Re: Awful app")
      #expect(value("iconid") == "0")
      #expect(value("savecopy") == "yes")
      #expect(value("parseurl") == "yes")
      #expect(value("signature") == nil)
      #expect(form.submitButtons == [ReplyForm.Field(name: "submit", value: "Send Message")])
      #expect(
        form.message.trimmingCharacters(in: .newlines)
          == "[quote]\nPickled Tink wrote on Nov  8, 2012 20:56:\nThanks for the [i]bot[/i]!\n[/quote]")

      var fields = form.fields.filter { $0.name != "message" }.map { ($0.name, $0.value) }
      fields.append(("message", Self.trickyBody.replacingOccurrences(of: "\n", with: "\r\n")))
      fields.append(("submit", "Send Message"))
      let result = try await client.postMultipart("/private.php", fields: fields)
      try PrivateMessageSendResultScraper().scrape(data: Data(result.body), url: client.baseURL)

      let delivered = try #require(await server.state.privateMessages(user: 1002, folder: .inbox).first)
      #expect(delivered.fromID == Self.bot)
      #expect(delivered.title == "Re: Awful app")
      #expect(delivered.body == .bbcode(Self.trickyBody))
      #expect(!delivered.isRead)
      let copy = try #require(await server.state.privateMessages(user: Self.bot, folder: .sent).first)
      #expect(copy.toID == 1002)
      #expect(copy.isRead)
      #expect(await server.state.privateMessage(original)?.wasRepliedTo == true)

      let inbox = try await folder(client, "?folderid=0")
      #expect(inbox.messages.first?.status.wasRepliedTo == true)
      let sent = try await folder(client, "?folderid=-1")
      #expect(sent.current == PrivateMessageFolder.Entry(id: "-1", name: "Sent Items"))
      #expect(sent.messages.map(\.subject) == ["Re: Awful app"])
      #expect(sent.messages.first?.sender?.name == "Pickled Tink")
    }
  }

  @Test func newMessageFormIsEmptyAndForwardIsMarked() async throws {
    try await withForum { server, client throws in
      let original = try await server.state.sendPrivateMessage(from: 1002, to: Self.bot, title: "Fwd me", body: "x")
      _ = try await client.logIn()
      let blank = try await client.get("/private.php?action=newmessage")
      let form = try ReplyFormScraper().scrape(data: Data(blank.body), url: client.baseURL, charset: charset(blank))
      #expect(form.fields.first { $0.name == "touser" }?.value == "")
      #expect(form.fields.first { $0.name == "prevmessageid" }?.value == "")
      #expect(form.message == "")

      let result = try await client.postMultipart(
        "/private.php",
        fields: [
          ("prevmessageid", "\(original)"), ("action", "dosend"), ("forward", "true"), ("touser", "angerbot"),
          ("title", "Fw: Fwd me"), ("iconid", "92"), ("message", "see below"), ("submit", "Send Message"),
        ])
      try PrivateMessageSendResultScraper().scrape(data: Data(result.body), url: client.baseURL)
      #expect(await server.state.privateMessage(original)?.wasForwarded == true)
      #expect(await server.state.privateMessages(user: Self.bot, folder: .sent).isEmpty)
      let inbox = try await folder(client)
      #expect(inbox.messages.first?.status.wasForwarded == true)
      let forwarded = try #require(await server.state.privateMessages(user: 1004).first)
      #expect(forwarded.iconID == 92)
    }
  }

  @Test func sendingIsRefusedForUnknownRecipientsEmptyFieldsAndOnProbation() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      func send(_ fields: [(String, String)]) async throws -> ForumPageError? {
        let reply = try await client.postMultipart("/private.php", fields: [("action", "dosend")] + fields)
        return try ErrorPageScraper().scrape(data: Data(reply.body), url: client.baseURL)
      }
      guard case .standard(_, let unknown)? = try await send([("touser", "nobody"), ("title", "t"), ("message", "m")])
      else {
        Issue.record("an unknown recipient should be a standard error")
        return
      }
      #expect(unknown.contains("nobody"))
      guard case .standard? = try await send([("touser", "angerbot"), ("title", " "), ("message", "m")]) else {
        Issue.record("an empty subject should be a standard error")
        return
      }
      await server.state.setFault(.probation)
      guard case .probation? = try await send([("touser", "angerbot"), ("title", "t"), ("message", "m")]) else {
        Issue.record("sending on probation should be refused")
        return
      }
      #expect(await server.state.allPrivateMessages().isEmpty)
    }
  }

  @Test func othersMessagesAndLoggedOutRequestsAreRefused() async throws {
    try await withForum { server, client throws in
      let theirs = try await server.state.sendPrivateMessage(from: Self.bot, to: 1002, title: "private", body: "x")
      let loggedOut = try await client.get("/private.php")
      #expect(loggedOut.text.contains("must be a registered forums member"))
      _ = try await client.logIn()
      let other = try await client.get("/private.php?action=show&privatemessageid=\(theirs)")
      guard case .standard(_, let message)? = try ErrorPageScraper().scrape(data: Data(other.body)) else {
        Issue.record("another user's message should be refused")
        return
      }
      #expect(message.contains("Invalid private message"))
      #expect(await server.state.privateMessage(theirs)?.isRead == false)
    }
  }

  @Test func aFolderListsItsLastFiftyMessagesUnlessAskedForAll() async throws {
    try await withForum { server, client throws in
      let start = Date(timeIntervalSince1970: 1_700_000_000)
      for n in 1...55 {
        try await server.state.sendPrivateMessage(
          from: 1002, to: Self.bot, title: "Message \(n)", body: "b", date: start.addingTimeInterval(Double(n) * 60))
      }
      _ = try await client.logIn()
      let last50 = try await folder(client, "?folderid=0")
      #expect(last50.isOnlyShowingLastFiftyMessages)
      #expect(last50.messages.count == 50)
      #expect(last50.messages.first?.subject == "Message 55")
      #expect(last50.messages.last?.subject == "Message 6")
      let all = try await folder(client, "?folderid=0&showall=1")
      #expect(!all.isOnlyShowingLastFiftyMessages)
      #expect(all.messages.count == 55)
    }
  }

  @Test func probationBannerOnPrivateMessagePages() async throws {
    try await withForum { server, client throws in
      let id = try await server.state.sendPrivateMessage(from: 1002, to: Self.bot, title: "t", body: "b")
      let end = Date(timeIntervalSince1970: 1_767_292_200)
      await server.state.setProbation(until: end)
      _ = try await client.logIn()
      #expect(try await folder(client).probation?.until == end)
      #expect(try await message(client, id).probation?.until == end)
    }
  }
}
