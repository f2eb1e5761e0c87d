import AwfulBotTestKit
import AwfulScraping
import ForumModel
import Foundation
import Testing

@testable import FakeForum

/// `banlist.php` and `member.php` as the emulator serves them, read back by the project's scrapers (the oracle of
/// what the real forum serves), and the admin API that makes the colony grow.
@Suite("FakeForum Leper's Colony")
struct LepersColonyPageTests {
  func charset(_ reply: ForumTestClient.Reply) -> String? {
    reply.contentType?.components(separatedBy: "charset=").last
  }

  func colony(_ client: ForumTestClient, _ pathAndQuery: String) async throws -> LepersColonyScraper.Result {
    let reply = try await client.get(pathAndQuery)
    #expect(reply.status == 200)
    let document = try HTMLDocument(data: Data(reply.body), url: client.baseURL, contentTypeCharset: charset(reply))
    return try LepersColonyScraper().read(document)
  }

  @Test(arguments: PageNavStyle.allCases)
  func seedReadsBackAsStored(pageNav: PageNavStyle) async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo, pageNav: pageNav))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      let result = try await colony(client, "/banlist.php")
      #expect(result.skipped.isEmpty)
      let stored = await server.state.lepersColony()
      #expect(stored.count == 4)
      #expect(result.page.punishments.count == stored.count)
      #expect(result.page.navigation == PageNavigation(current: 1, total: 1))
      for (read, entry) in zip(result.page.punishments, stored) {
        #expect(read.sentence.rawValue == entry.kind.rawValue)
        #expect(read.date == entry.date)
        #expect(read.postID == entry.postID.map(String.init))
        #expect(
          read.subject
            == ForumUserReference(name: await server.state.user(entry.subjectID)?.name ?? "", id: "\(entry.subjectID)"))
        #expect(read.requester.id == "\(entry.requesterID)")
        #expect(read.approver?.id == entry.approverID.map(String.init))
        #expect(read.reasonHTML == entry.reasonHTML)
      }
      #expect(result.page.punishments.map(\.probationLength) == [nil, "1 day", nil, "6 hours"])
    }
  }

  @Test func rapSheetAndPages() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo, pageNav: .old))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      for n in 0..<60 {
        try await client.admin.addPunishment(
          kind: "probation", user: "Zoë Québec", requester: "Majuju", reason: "Number \(n).", length: "\(n) hours",
          date: Date(timeIntervalSince1970: 1_800_000_000 + Double(n) * 60))
      }
      let sheet = try await colony(client, "/banlist.php?userid=1003")
      #expect(sheet.page.punishments.count == 50)
      #expect(sheet.page.navigation == PageNavigation(current: 1, total: 2))
      #expect(sheet.page.punishments.first?.reasonHTML == "Number 59.  User loses posting privileges for 59 hours.")
      let second = try await colony(client, "/banlist.php?userid=1003&pagenumber=2")
      #expect(second.page.punishments.count == 12)
      #expect(second.page.punishments.allSatisfy { $0.subject.id == "1003" })
      // Past the end: no rows; a user id that is no number, or too long for one: nobody's sheet.
      #expect(try await colony(client, "/banlist.php?pagenumber=99999999999999999999").page.punishments.count == 50)
      #expect(try await colony(client, "/banlist.php?pagenumber=3").page.punishments.isEmpty)
      #expect(try await colony(client, "/banlist.php?userid=abc").page.punishments.isEmpty)
      #expect(try await colony(client, "/banlist.php?userid=99999999999999999999999").page.punishments.isEmpty)
      // The admin API lists what the page shows.
      let listed = try await client.admin.send("GET", "/_fake/punishments?user=1003")
      let entries = try #require(try listed.json() as? [[String: Any]])
      #expect(entries.count == 62)
      #expect(entries.first?["reason"] as? String == "Number 59.  User loses posting privileges for 59 hours.")
    }
  }

  /// Everything on the page is escaped except the reason, which is the moderator's HTML.
  @Test func onlyTheReasonIsRaw() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .empty))
    try await withStarted(server) { client throws in
      let jerk = try await server.state.addUser(name: "<b>Jerk</b> & co", password: "x")
      let mod = try await server.state.addUser(name: "Mod \"quoted\"", password: "x")
      try await server.state.addPunishment(
        kind: .probation, user: jerk, requester: mod, approver: nil, reasonHTML: "<i>Markup</i> @room",
        probationLength: "<script>2</script> days")
      _ = try await client.logIn()
      let reply = try await client.get("/banlist.php")
      #expect(reply.text.contains("&lt;b&gt;Jerk&lt;/b&gt; &amp; co"))
      #expect(reply.text.contains("Mod &quot;quoted&quot;"))
      #expect(
        reply.text.contains(
          "<td><i>Markup</i> @room  User loses posting privileges for &lt;script&gt;2&lt;/script&gt; days.</td>"))
      let entry = try #require(try await colony(client, "/banlist.php").page.punishments.first)
      #expect(entry.subject.name == "<b>Jerk</b> & co")
      #expect(entry.requester.name == "Mod \"quoted\"")
      #expect(entry.approver == nil)
    }
  }

  @Test func adminAPIRefusesUnknownUsersAndKinds() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo))
    try await withStarted(server) { client throws in
      let unknown = try await client.admin.send(
        "POST", "/_fake/punishments", json: #"{"kind":"ban","user":"nobody","requester":"Majuju","reason":"x"}"#)
      #expect(unknown.status == 404)
      let kind = try await client.admin.send(
        "POST", "/_fake/punishments", json: #"{"kind":"warning","user":1002,"requester":1005,"reason":"x"}"#)
      #expect(kind.status == 404)
      let added = try await client.admin.send(
        "POST", "/_fake/punishments",
        json:
          #"{"kind":"ban","user":1002,"requester":1005,"approver":"angerbot","reason":"x","post":5,"date":1800000000}"#)
      #expect(added.status == 200)
      let newest = try #require(await server.state.lepersColony().first)
      #expect(newest.kind == .ban && newest.approverID == 1004 && newest.postID == 5)
      #expect(newest.date == Date(timeIntervalSince1970: 1_800_000_000))
    }
  }

  @Test func profileByNameOrIDAndTheUnknownUser() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      let byName = try await client.get("/member.php?action=getinfo&username=Zo%C3%AB+Qu%C3%A9bec")
      #expect(
        try ProfileUserScraper().scrape(data: Data(byName.body), charset: charset(byName))
          == ForumUserReference(name: "Zoë Québec", id: "1003"))
      let byID = try await client.get("/member.php?action=getinfo&userid=1005")
      #expect(try ProfileUserScraper().scrape(data: Data(byID.body), charset: charset(byID)).name == "Majuju")
      let own = try await client.get("/member.php?action=getinfo")
      #expect(try ProfileUserScraper().scrape(data: Data(own.body), charset: charset(own)).id == "1001")
      let unknown = try await client.get("/member.php?action=getinfo&username=Nobody")
      guard case .standard(_, let message)? = try ErrorPageScraper().scrape(data: Data(unknown.body)) else {
        Issue.record("an unknown user should be a standard error page")
        return
      }
      #expect(message.hasPrefix("Invalid user specified."))
    }
  }

  @Test func loggedOutGetsTheMustRegisterPage() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo))
    try await withStarted(server) { client throws in
      for path in ["/banlist.php", "/member.php?action=getinfo&username=Majuju"] {
        let reply = try await client.get(path)
        guard case .loggedOut? = try ErrorPageScraper().scrape(data: Data(reply.body)) else {
          Issue.record("\(path) without a session should be the logged-out page")
          continue
        }
      }
    }
  }
}
