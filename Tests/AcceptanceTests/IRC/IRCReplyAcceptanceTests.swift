import AwfulBotIRCTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

@testable import IRCTransport

/// Answering a relayed post from IRC (issue 26), as the people in the channel read it: each relay starts with its
/// r-number, `!re r7 <text>` (or `awfulbot: ^ <text>` for the channel's last relay) shows a preview of a forum reply
/// quoting that post the way the forum's Quote button does, `!confirm` posts it and gives the link to the page that
/// holds the new post. Posting speaks for the bot's forum account, so by default only admins may (the op here);
/// `!replies member` opens it to voiced members.
extension IRCLiveTests {
  @Suite("acceptance: answering relays on IRC", .serialized)
  struct IRCReplyAcceptance {
    static let developmentThread = "AwfulBot development thread: bridging the forums and chat"
    static let quebecThread = "Québec politics thread: «débat» 🍁"
    static let deskThread = "Post your desk 📷"

    /// Majuju's post: an answer to angerbot, longer than the one line a preview gives the quote.
    static let majujuWords =
      "Should the bot quote the post it answers? I think it should: people on the forum cannot see the chat, so "
      + "without the quote they have no idea what an answer is about, and they end up asking in the thread."

    @Test("an op answers a relay by its r-number: preview, !confirm, the quoted post on its page; a viewer is refused")
    func answerByReference() async throws {
      try await IRCAcceptanceChannel.with { room in
        let postID = try await room.forumAdmin.addPost(
          thread: 3_600_001, author: "Majuju",
          body: "[quote=\"angerbot\"]\nStay on topic, please.\n[/quote]\n\(Self.majujuWords)")
        var transcript = try await room.pollAndRead(1, reader: room.plain).map(room.shown)

        // The longest answer IRC carries to the bot whole: the op's line as the server relays it, 512 bytes at most.
        let text = try await Self.longestAnswer(from: room.op, command: "!re r1 ", in: room)
        let said = try await Self.transcriptLines(
          [(room.plain, "!re r1 I agree."), (room.op, "!re r1 \(text)"), (room.op, "!confirm")], in: room)
        transcript += said.flatMap(\.shown)
        let newID = try #require(await room.forum.state.thread(3_600_001)?.postIDs.last)
        let page = "https://forum.example/showthread.php?threadid=3600001&perpage=40&pagenumber=3"
        expectTranscript(
          transcript,
          [
            "-awfulbot- r1 [\(Self.developmentThread)] Majuju, replying to angerbot: Should the bot quote the post it "
              + "answers? I think it should: people on the forum cannot see the chat, so without the quote they have "
              + "no idea what an answer is about, and they end up asking in the thread. \(page)#post\(postID)",
            "<plain> !re r1 I agree.",
            "<awfulbot> Replying to relayed posts on the forum needs the admin role here; you are a viewer.",
            "<op> !re r1 \(text)",
            "<awfulbot> Reply to “\(Self.developmentThread)” as the bot account (it lands on page 3), quoting Majuju: "
              + page,
            "<awfulbot> > Should the bot quote the post it answers? I think it should: people on the forum cannot see "
              + "the chat, so without the quote they have no idea what an answer is…",
            "<awfulbot> with your text:",
            "<awfulbot> > \(text)",
            "<awfulbot> Say !confirm within 2 minutes to post it, or !cancel.",
            "<op> !confirm",
            "<awfulbot> Posted: “\(Self.developmentThread)”, quoting Majuju. \(page)#post\(newID)",
          ], "an op answering a relay by its r-number")

        // Every line the bot sent fits IRC's 512 bytes, and the preview shows the whole text (nothing cut).
        for line in said.flatMap(\.received) {
          #expect(line.wireBytes <= 512, "\(line.wireBytes) bytes: \(line.raw)")
        }
        let shownWords: [String] = said.flatMap(\.received).flatMap { $0.text.split(separator: " ") }.map(String.init)
        let typed: [String] = text.split(separator: " ").map(String.init)
        let shownMots = shownWords.filter { $0.hasPrefix("mot") }
        #expect(shownMots == typed, "every word of the text, in order, in the preview")

        // The forum holds the bot's post: the Quote button's quote of Majuju's own words, then the whole text.
        let posted = try #require(await room.forum.state.post(newID))
        #expect(posted.authorID == FakeForumSeed.botUserID)
        #expect(
          posted.body
            == .bbcode("[quote=\"Majuju\" post=\"\(postID)\"]\n\(Self.majujuWords)\n[/quote]\n\n\(text)"))
        #expect(posted.index == 97, "after Majuju's post (the 96th), on page 3 as the preview said")
        try await IRCAcceptance.expectLinksLand(in: transcript.filter { $0.contains("Posted:") }, room)
      }
    }

    @Test("`awfulbot: ^ text` answers the channel's last relay; after !replies member a voiced member may answer too")
    func answerTheLastRelay() async throws {
      try await IRCAcceptanceChannel.with { room in
        try await using(room.joinVoicedMember(), tearDown: { await $0.quit() }) { member in
          // Two relays, one poll each: Zoë in the Québec thread, then Majuju in the desk thread (the last).
          let zoe = try await room.forumAdmin.addPost(
            thread: 3_600_002, author: "Zoë Québec", body: "Qui vote dimanche ?")
          var transcript = try await room.pollAndRead(1, reader: room.op).map(room.shown)
          let majuju = try await room.forumAdmin.addPost(
            thread: 3_600_003, author: "Majuju", body: "My desk, finally tidy.")
          transcript += try await room.pollAndRead(1, reader: room.op).map(room.shown)
          // A line that only starts with ^ is talk, not an answer to the bot.
          transcript += try await room.say("^ that desk", as: room.plain, answered: false)
          transcript += try await Self.transcriptLines(
            [(room.op, "BOT: ^ Very tidy indeed."), (room.op, "!confirm")], in: room
          ).flatMap(\.shown)
          let deskAnswer = try #require(await room.forum.state.thread(3_600_003)?.postIDs.last)
          let deskPage = "https://forum.example/showthread.php?threadid=3600003&perpage=40&pagenumber=1"
          let quebecPage = "https://forum.example/showthread.php?threadid=3600002&perpage=40&pagenumber=1"
          expectTranscript(
            transcript,
            [
              "-awfulbot- r1 [\(Self.quebecThread)] Zoë Québec: Qui vote dimanche ? \(quebecPage)#post\(zoe)",
              "-awfulbot- r2 [\(Self.deskThread)] Majuju: My desk, finally tidy. \(deskPage)#post\(majuju)",
              "<plain> ^ that desk",
              "<op> awfulbot: ^ Very tidy indeed.",
              "<awfulbot> Reply to “\(Self.deskThread)” as the bot account (it lands on page 1), quoting Majuju: "
                + deskPage,
              "<awfulbot> > My desk, finally tidy.",
              "<awfulbot> with your text:",
              "<awfulbot> > Very tidy indeed.",
              "<awfulbot> Say !confirm within 2 minutes to post it, or !cancel.",
              "<op> !confirm",
              "<awfulbot> Posted: “\(Self.deskThread)”, quoting Majuju. \(deskPage)#post\(deskAnswer)",
            ], "the op answering the last relay")
          let deskPost = try #require(await room.forum.state.post(deskAnswer))
          #expect(deskPost.authorID == FakeForumSeed.botUserID)
          #expect(
            deskPost.body
              == .bbcode("[quote=\"Majuju\" post=\"\(majuju)\"]\nMy desk, finally tidy.\n[/quote]\n\nVery tidy indeed.")
          )

          // The next poll finds the bot's own post, but does not relay it back here: the channel read its text in the
          // preview and in "Posted". Then Zoë asks again (r3), the channel's last relay.
          let afterPosting = await room.op.mark()
          await room.poll()
          try await room.settled(for: room.op)
          let echoed = await room.op.lines[afterPosting...].filter(room.isFromBot)
          #expect(echoed.isEmpty, "nothing said twice: \(echoed)")
          let again = try await room.forumAdmin.addPost(
            thread: 3_600_002, author: "Zoë Québec", body: "Et vous, vous votez ?")
          var later = try await room.pollAndRead(1, reader: room.op).map(room.shown)
          later += try await Self.transcriptLines(
            [
              (member, "BOT: ^ Oui, dimanche matin."), (room.op, "!replies member"), (room.plain, "BOT: ^ Moi aussi."),
              (member, "BOT: ^ Oui, dimanche matin."), (member, "!confirm"),
            ], in: room
          ).flatMap(\.shown)
          let quebecAnswer = try #require(await room.forum.state.thread(3_600_002)?.postIDs.last)
          expectTranscript(
            later,
            [
              "-awfulbot- r3 [\(Self.quebecThread)] Zoë Québec: Et vous, vous votez ? \(quebecPage)#post\(again)",
              "<member> awfulbot: ^ Oui, dimanche matin.",
              "<awfulbot> Replying to relayed posts on the forum needs the admin role here; you are a member.",
              "<op> !replies member",
              "<awfulbot> From now on members and up may reply on the forum here by answering a relayed post (a preview "
                + "to confirm first).",
              "<plain> awfulbot: ^ Moi aussi.",
              "<awfulbot> Replying to relayed posts on the forum needs the member role here; you are a viewer.",
              "<member> awfulbot: ^ Oui, dimanche matin.",
              "<awfulbot> Reply to “\(Self.quebecThread)” as the bot account (it lands on page 1), quoting Zoë Québec: "
                + quebecPage,
              "<awfulbot> > Et vous, vous votez ?",
              "<awfulbot> with your text:",
              "<awfulbot> > Oui, dimanche matin.",
              "<awfulbot> Say !confirm within 2 minutes to post it, or !cancel.",
              "<member> !confirm",
              "<awfulbot> Posted: “\(Self.quebecThread)”, quoting Zoë Québec. \(quebecPage)#post\(quebecAnswer)",
            ], "a voiced member answering once replies are open to members")

          // The member's answer is on the forum, quoting Zoë's second post, and the link opens its page.
          let quebecPost = await room.forum.state.post(quebecAnswer)
          #expect(quebecPost?.authorID == FakeForumSeed.botUserID, "the member's confirmed reply was posted")
          #expect(
            quebecPost?.body
              == .bbcode(
                "[quote=\"Zoë Québec\" post=\"\(again)\"]\nEt vous, vous votez ?\n[/quote]\n\nOui, dimanche matin."))
          try await IRCAcceptance.expectLinksLand(in: (transcript + later).filter { $0.contains("Posted:") }, room)
        }
      }
    }

    // MARK: Helpers

    /// A line said and what the bot answered: the transcript lines as the speaker reads them, and the bot's lines as
    /// they came over the wire.
    struct Said {
      var shown: [String]
      var received: [ReceivedLine]
    }

    /// Each line said by its speaker in turn (`BOT` is the bot's nick), as `IRCAcceptanceChannel.say` does, with the
    /// raw lines kept for their size; a speaker the channel does not name (the voiced member) shows as `member`.
    static func transcriptLines(_ script: [(IRCTestClient, String)], in room: IRCAcceptanceChannel) async throws
      -> [Said]
    {
      var said: [Said] = []
      for (client, text) in script {
        let line = text.replacingOccurrences(of: "BOT", with: room.botNick)
        let mark = await client.mark()
        try await client.send("PRIVMSG \(room.channel) :\(line)")
        let answer = try await room.botLines(seenBy: client, from: mark, what: "the answer to \(line)")
        let name = [room.op, room.plain, room.admin].contains { $0 === client } ? room.name(of: client) : "member"
        said.append(Said(shown: ["<\(name)> \(room.readable(line))"] + answer.map(room.shown), received: answer))
      }
      return said
    }

    /// Words (`mot1 mot2 …`) as many as fit after `command` in a line from `client`, once the server has put the
    /// sender in front (`:nick!user@host PRIVMSG #channel :…` and CR LF: 512 bytes): IRC cuts a longer line.
    static func longestAnswer(from client: IRCTestClient, command: String, in room: IRCAcceptanceChannel) async throws
      -> String
    {
      let join = try #require(await client.lines.first { $0.command == "JOIN" && $0.nick == client.nick })
      let source = String(join.raw.split(separator: " ").first { $0.hasPrefix(":") } ?? "")
      let budget = 512 - "\(source) PRIVMSG \(room.channel) :\(command)\r\n".utf8.count
      var words: [String] = []
      while (words + ["mot\(words.count + 1)"]).joined(separator: " ").utf8.count <= budget {
        words.append("mot\(words.count + 1)")
      }
      return words.joined(separator: " ")
    }
  }
}

extension IRCAcceptanceChannel {
  /// A fourth person joins the channel and the op gives them voice: a member for the bot once it has seen the mode.
  func joinVoicedMember() async throws -> IRCTestClient {
    let member = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("mb"), environment: environment)
    do {
      try await member.join(channel)
      try await op.send("MODE \(channel) +v \(member.nick)")
      try await waitUntil(timeout: .seconds(10)) {
        await self.transport.client.channelModes(self.channel, nick: member.nick).contains("v")
      }
    } catch {
      await member.quit()
      throw error
    }
    return member
  }
}
