import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Logging
import Testing

@testable import ForumsClient

/// The Leper's Colony and rap sheets read over loopback from the emulator: what each costs in requests, what comes
/// back, and how the forum's refusals, walls and expired sessions come out.
@Suite("Leper's Colony", .serialized)
struct LepersColonyTests {
  static let bot = FakeForumSeed.botUserID

  /// The demo seed's colony, newest first, read in one request: `GET banlist.php?pagenumber=1`.
  @Test func theColonyIsOneRequest() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()

      let page = try await forum.client.lepersColony(page: 1)
      let requests = await forum.state.requests()
      #expect(requests.count == 1)
      #expect(requests.first?.path == "/banlist.php")
      #expect(requests.first?.query == [LoggedRequest.Field(name: "pagenumber", value: "1")])

      let stored = await forum.state.lepersColony()
      #expect(page.punishments.count == stored.count)
      #expect(page.navigation == PageNavigation(current: 1, total: 1))
      for (read, entry) in zip(page.punishments, stored) {
        #expect(read.sentence.rawValue == entry.kind.rawValue)
        #expect(read.date == entry.date)
        #expect(read.postID == entry.postID.map(String.init))
        #expect(read.subject.id == "\(entry.subjectID)")
        #expect(read.subject.name == (await forum.state.user(entry.subjectID))?.name)
        #expect(read.requester.id == "\(entry.requesterID)")
        #expect(read.approver?.id == entry.approverID.map(String.init))
        #expect(read.reasonHTML == entry.reasonHTML)
      }
      // The seed's newest: Pickled Tink's ban; its oldest a 6-hour probation.
      #expect(page.punishments.first?.sentence == .ban)
      #expect(page.punishments.first?.subject.name == "Pickled Tink")
      #expect(page.punishments.last?.probationLength == "6 hours")
      #expect(page.punishments.contains { $0.sentence == .probation && $0.probationLength == "1 day" })
    }
  }

  /// A new entry through the admin API is the first of page 1 on the next read; 51 entries make two pages.
  @Test func theColonyGrowsAndPages() async throws {
    try await withFakeForum(seed: .empty) { forum in
      let admin = try await forum.state.addUser(name: "Some Mod", password: "x", isModerator: true)
      let jerk = try await forum.state.addUser(name: "Horrible Jerk", password: "x")
      let start = Date(timeIntervalSince1970: 1_700_000_000)
      for n in 0..<51 {
        try await forum.state.addPunishment(
          kind: n % 2 == 0 ? .probation : .autoban, user: jerk, requester: admin, approver: admin,
          reasonHTML: "Entry \(n).", probationLength: "\(n + 1) hours", date: start.addingTimeInterval(Double(n) * 60))
      }
      let first = try await forum.client.lepersColony(page: 1)
      #expect(first.punishments.count == 50)
      #expect(first.navigation == PageNavigation(current: 1, total: 2))
      #expect(first.punishments.first?.reasonHTML == "Entry 50.  User loses posting privileges for 51 hours.")
      #expect(first.punishments.first?.probationLength == "51 hours")
      let second = try await forum.client.lepersColony(page: 2)
      #expect(second.punishments.map(\.reasonHTML) == ["Entry 0.  User loses posting privileges for 1 hours."])
      #expect(second.navigation == PageNavigation(current: 2, total: 2))
    }
  }

  /// A rap sheet by user id is one request: `GET banlist.php?userid=U&pagenumber=1`.
  @Test func rapSheetByIDIsOneRequest() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()

      let sheet = try await forum.client.rapSheet(user: "1003", page: 1)
      let requests = await forum.state.requests()
      #expect(requests.map(\.path) == ["/banlist.php"])
      #expect(
        requests.first?.query == [
          LoggedRequest.Field(name: "userid", value: "1003"), LoggedRequest.Field(name: "pagenumber", value: "1"),
        ])
      #expect(sheet.punishments.map(\.subject.name) == ["Zoë Québec", "Zoë Québec"])
      #expect(sheet.punishments.map(\.sentence) == [.probation, .autoban])
    }
  }

  /// A rap sheet by name is two requests: the profile that names the id, then the rap sheet.
  @Test(arguments: ["Zoë Québec", "zoë québec", "  Zoë Québec "])
  func rapSheetByNameIsTwoRequests(name: String) async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()

      let sheet = try await forum.client.rapSheet(user: name, page: 1)
      let requests = await forum.state.requests()
      #expect(requests.map(\.path) == ["/member.php", "/banlist.php"])
      #expect(requests.first?.queryValue("username")?.lowercased().contains("québec") == true)
      #expect(requests.last?.queryValue("userid") == "1003")
      #expect(sheet.punishments.count == 2)
      #expect(sheet.punishments.allSatisfy { $0.subject.id == "1003" })
    }
  }

  /// A user the forum does not know is the forum's own sentence as `ForumPageError`, and no rap sheet is asked.
  @Test func unknownUserIsTheForumsSentence() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      await #expect {
        _ = try await forum.client.rapSheet(user: "Nobody At All", page: 1)
      } throws: { error in
        guard case ForumPageError.standard(_, let message) = error else { return false }
        return message.hasPrefix("Invalid user specified.")
      }
      #expect(await forum.state.requests().map(\.path) == ["/member.php"])
    }
  }

  /// An empty name asks nothing (the forum would answer with the bot's own profile), nor does an overlong one.
  @Test func emptyOrOverlongUserAsksNothing() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      await #expect(throws: RapSheetUserInvalid.empty) { _ = try await forum.client.rapSheet(user: "  ", page: 1) }
      await #expect(throws: RapSheetUserInvalid.tooLong) {
        _ = try await forum.client.rapSheet(user: String(repeating: "@room ", count: 2_000), page: 1)
      }
      #expect(await forum.state.requests().isEmpty)
    }
  }

  /// The next page of a sheet read by name asks for the profile no more: the id found is kept.
  @Test func theNextPageByNameIsOneRequest() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      _ = try await forum.client.rapSheet(user: "Pickled Tink", page: 1)
      _ = try await forum.client.rapSheet(user: "pickled tink", page: 2)
      #expect(await forum.state.requests().map(\.path) == ["/member.php", "/banlist.php", "/banlist.php"])
    }
  }

  /// A user with nothing on record has an empty rap sheet, which is not an error.
  @Test func cleanRecordIsEmpty() async throws {
    try await withFakeForum { forum in
      let sheet = try await forum.client.rapSheet(user: "\(Self.bot)", page: 1)
      #expect(sheet.punishments.isEmpty)
    }
  }

  /// Page numbers from outside are brought into range before they are sent.
  @Test func pageNumbersAreClamped() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      _ = try await forum.client.lepersColony(page: -7)
      _ = try await forum.client.lepersColony(page: Int.max)
      let pages = await forum.state.requests().compactMap { $0.queryValue("pagenumber") }
      #expect(pages == ["1", "\(Clamp.forumNumber)"])
    }
  }

  /// The session expired: the client logs in again and reads the page, as for every page.
  @Test func logsInAgainWhenTheSessionIsGone() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.invalidateSessions()
      let page = try await forum.client.rapSheet(user: "Pickled Tink", page: 1)
      #expect(page.punishments.count == 2)
      #expect(await forum.requests(to: "/account.php").count == 2)
    }
  }

  /// The forum's refusals come out typed, never as an empty colony.
  @Test func refusalsAreTypedErrors() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.databaseUnavailable)
      let down = await clientError { _ = try await forum.client.lepersColony(page: 1) }
      #expect(down.map { if case .databaseUnavailable = $0 { true } else { false } } == true)
      await forum.state.clearFaults()

      await forum.state.setFault(.wall(WallFault(kind: .rateLimit, paths: ["/banlist.php"], retryAfterSeconds: 60)))
      let walled = await clientError { _ = try await forum.client.rapSheet(user: "1002", page: 1) }
      #expect(walled?.wall?.kind == .rateLimit)
      await forum.state.clearFaults()

      await forum.state.setFault(.banned)
      let banned = await clientError { _ = try await forum.client.lepersColony(page: 1) }
      #expect(banned.map { if case .banned = $0 { true } else { false } } == true)
    }
  }

  /// The probation banner on the colony's page is noted like on any page.
  @Test func probationBannerIsNoted() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.probation)
      _ = try await forum.client.lepersColony(page: 1)
      #expect(await forum.client.probation != nil)
    }
  }

  /// A reason with markup and pings comes through as the moderator's HTML, and as rich text without the script.
  @Test func hostileReasonReadBack() async throws {
    try await withFakeForum { forum in
      let reason = "<script>alert(1)</script><b>@room</b> &amp; <i>everyone</i> <a href=\"javascript:alert(2)\">x</a>"
      try await forum.state.addPunishment(
        kind: .permaban, user: 1002, requester: 1005, approver: nil, reasonHTML: reason, postID: Int.max)
      let page = try await forum.client.lepersColony(page: 1)
      let entry = try #require(page.punishments.first)
      #expect(entry.sentence == .permaban)
      #expect(entry.approver == nil)
      // 19 digits: more than any real post id has, so no id (a reader's `Int` could not hold a longer one).
      #expect(entry.postID == nil)
      let text = plainText(entry.reason)
      #expect(text.contains("@room & everyone"))
      #expect(!text.contains("alert(1)"))
      #expect(!String(describing: entry.reason).contains("javascript:"))
    }
  }
}
