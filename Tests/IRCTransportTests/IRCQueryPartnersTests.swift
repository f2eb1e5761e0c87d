import ChatBridge
import Foundation
import Testing

@testable import IRCTransport

/// Private-message rooms on IRC (issue 33): a query from someone logged in to services is the account's room and
/// reaches only a nick known to be theirs; a query by nick ends when the nick goes, so whoever takes it next gets
/// nothing that room follows.
@Suite("IRC private-message rooms")
struct IRCQueryPartnersTests {
  let start = ContinuousClock.now

  @Test("room names: account:<folded account> with an account, the nick without")
  func roomNames() {
    #expect(IRCQueryPartners.room(nick: "Alice", account: "AliceAcct") == "account:aliceacct")
    #expect(IRCQueryPartners.room(nick: "Alice", account: nil) == "Alice")
    #expect(IRCQueryPartners.account(inRoom: "account:Alice") == "alice")
    #expect(IRCQueryPartners.account(inRoom: "account:") == nil)
    #expect(IRCQueryPartners.account(inRoom: "Alice") == nil)
    #expect(IRCQueryPartners.account(inRoom: "#account:x") == nil)
  }

  @Test("an account reaches its nick while it is visible or just spoke; never after the nick left or logged out")
  func accountBindings() {
    var partners = IRCQueryPartners()
    let nowhere = { (_: String) in false }
    partners.saw(nick: "alice", account: "Alice", at: start)
    #expect(partners.nick(forAccount: "alice", visible: nowhere, now: start + .seconds(30)) == "alice")
    #expect(
      partners.nick(forAccount: "alice", visible: nowhere, now: start + .seconds(61)) == nil,
      "unseen for longer than the grace: the nick may be someone else's by now")
    #expect(partners.nick(forAccount: "alice", visible: { $0 == "alice" }, now: start + .seconds(600)) == "alice")
    partners.online.insert("alice")
    #expect(partners.nick(forAccount: "alice", visible: nowhere, now: start + .seconds(600)) == "alice")

    // A NICK on the same connection: the account follows its owner.
    #expect(partners.renamed(from: "alice", to: "alice_away") == nil, "an account room does not end")
    #expect(partners.nick(forAccount: "alice", visible: { $0 == "alice_away" }, now: start) == "alice_away")
    // QUIT: nothing reaches the account until it is seen again.
    #expect(partners.left(nick: "alice_away", reason: "quit") == nil)
    #expect(partners.nick(forAccount: "alice", visible: { _ in true }, now: start) == nil)

    // A logout (ACCOUNT *), or the nick logging in as someone else, ends the binding too.
    partners.saw(nick: "alice", account: "alice", at: start)
    partners.accountChanged(nick: "alice", to: nil, at: start)
    #expect(partners.nick(forAccount: "alice", visible: { _ in true }, now: start) == nil)
    partners.saw(nick: "alice", account: "alice", at: start)
    partners.saw(nick: "alice", account: "mallory", at: start)
    #expect(partners.nick(forAccount: "alice", visible: { _ in true }, now: start) == nil)
    #expect(partners.nick(forAccount: "mallory", visible: { _ in true }, now: start) == "alice")
  }

  @Test("a nick's room ends when the nick quits, changes, or goes offline; MONITOR is asked for each nick once")
  func nickRoomsEnd() {
    var partners = IRCQueryPartners()
    partners.follow(nickRoom: "Bob")
    partners.follow(nickRoom: "carol")
    partners.saw(nick: "dave", account: "dave", at: start)
    #expect(Set(partners.unmonitored()) == ["Bob", "carol", "dave"])
    partners.monitored = ["bob", "carol", "dave"]
    #expect(partners.unmonitored().isEmpty)
    #expect(partners.left(nick: "bob", reason: "bob quit") == .init(room: "Bob", reason: "bob quit"))
    #expect(partners.left(nick: "bob", reason: "again") == nil, "ended once")
    #expect(
      partners.renamed(from: "carol", to: "carol2") == .init(room: "carol", reason: "carol is now known as carol2"))
    #expect(partners.unwanted() == ["bob", "carol"], "taken off MONITOR; dave's nick still reaches his account")
    partners.follow(nickRoom: "Erin")
    partners.online = ["dave"]
    partners = partners.forNewConnection()
    #expect(partners.bindings.isEmpty && partners.monitored.isEmpty && partners.online.isEmpty)
    #expect(partners.nickRooms == ["erin": "Erin"], "a nick's query room outlives the connection")
  }

  @Test("the client: a query's room by account or nick, and QUIT, NICK and MONITOR's offline end a nick's room")
  func clientRooms() async throws {
    let feed = try IRCRolesAndAddressTests.Feed()
    await feed.joined(prefix: "MONITOR=100")
    #expect(await feed.said("!pms", by: "Alice", to: "awfulbot", account: "AliceAcct")?.room == "account:aliceacct")
    #expect(await feed.said("!pms", by: "Bob", to: "awfulbot")?.room == "Bob")
    #expect(await feed.said("!status", by: "Carol", to: "awfulbot")?.room == "Carol")
    #expect(await feed.said("!status", by: "Dave", to: "awfulbot")?.room == "Dave")
    #expect(await feed.said("!status", by: "Erin")?.room == "#goons", "a channel line makes no query room")
    await feed.lines(
      ":Bob!bob@bob.example QUIT :bye", ":Carol!carol@carol.example NICK :Carol2",
      ":irc.example 731 awfulbot :Dave", ":Erin!erin@erin.example QUIT :bye",
      ":Alice!alice@alice.example QUIT :bye")
    #expect(
      feed.memberships.map { "\($0.room) \($0.kind) \($0.reason ?? "")" } == [
        "Bob partnerLeft Bob quit", "Carol partnerLeft Carol is now known as Carol2",
        "Dave partnerLeft Dave went offline",
      ])
  }
}
