import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PolicyChain {
  @Suite("commands from the room", .serialized)
  struct Commands {
    static let link = "https://forums.somethingawful.com/showthread.php?threadid=3600005"

    @Test("!bookmark from a user with power 50 bookmarks the thread and the bot answers in a reply")
    func bookmarkWithPower() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let member = try await MatrixHuman.register("member")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner, power: [member.userID: 50])
          try await owner.invite(member.userID, to: room)
          try await member.join(room)
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil)

          let command = try await member.say("!bookmark \(Self.link)", in: room)
          let events = try await member.waitForMessages(in: room) { events in
            events.contains { $0.replyTo == command }
          }
          let reply = try #require(events.first { $0.replyTo == command }, "the bot answers in a reply")
          #expect(reply.sender == world.botAccount.userID)
          #expect(reply.msgtype == "m.notice")
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] != nil, "the emulator's bookmarks changed")
          #expect(reply.body?.localizedCaseInsensitiveContains("bookmark") == true, "answer: \(reply.body ?? "")")
        }
      }
    }

    @Test("a user without power is refused and nothing changes")
    func refusedWithoutPower() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let nobody = try await MatrixHuman.register("nobody")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await owner.invite(nobody.userID, to: room)
          try await nobody.join(room)
          let command = try await nobody.say("!bookmark \(Self.link)", in: room)
          let events = try await nobody.waitForMessages(in: room) { events in
            events.contains { $0.replyTo == command }
          }
          let reply = try #require(events.first { $0.replyTo == command })
          #expect(reply.body?.contains("needs the member role") == true, "answer: \(reply.body ?? "")")
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil)
        }
      }
    }

    @Test("the bot's own messages and edits never run as commands")
    func ownMessagesAndEditsIgnored() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          // An edit turning a harmless line into a command: must not run.
          let original = try await owner.say("hello", in: room)
          try await owner.call(
            "PUT", ["rooms", room, "send", "m.room.message", UUID().uuidString],
            body: [
              "msgtype": "m.text", "body": .string("* !bookmark \(Self.link)"),
              "m.new_content": ["msgtype": "m.text", "body": .string("!bookmark \(Self.link)")],
              "m.relates_to": ["rel_type": "m.replace", "event_id": .string(original)],
            ])
          // The bot's own line that looks like a command: must not run either.
          _ = try await bot.transport.send(
            OutgoingMessage(.answer(CommandAnswer("!bookmark \(Self.link)"))), to: room,
            idempotencyKey: UUID().uuidString)
          // A marker command afterwards: once it is answered, everything before it was seen.
          let marker = try await owner.say("!help", in: room)
          try await owner.waitForMessages(in: room) { $0.contains { $0.replyTo == marker } }
          let answers = try await owner.messages(in: room).from(world.botAccount.userID).filter { $0.replyTo != nil }
          #expect(answers.map(\.replyTo) == [marker])
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil)
        }
      }
    }

    @Test("the first sync skips history: a command written before the bot ever ran is not executed")
    func firstSyncSkipsHistory() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        // The bot's account is in the room before the bot software first runs.
        let room = try await owner.createRoom(invite: [world.botAccount.userID])
        _ = try await MatrixHuman.raw(
          "POST", MatrixHuman.path(["_matrix", "client", "v3", "join", room]), body: [:],
          token: world.botAccount.accessToken)
        try await owner.say("!bookmark \(Self.link)", in: room)
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let marker = try await owner.say("!help", in: room)
          try await owner.waitForMessages(in: room) { $0.contains { $0.replyTo == marker } }
          let answers = try await owner.messages(in: room).from(world.botAccount.userID)
          #expect(answers.map(\.replyTo) == [marker])
          #expect(await world.forumState.bookmarks(user: 1001)[3_600_005] == nil)
        }
      }
    }

    @Test("after a restart the sync resumes: a command sent while the bot was down is executed once")
    func resumeAfterRestart() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let first = try MatrixBotProcess(world: world)
        let room = try await first.run { bot in try await bot.joinedRoom(owner: owner) }
        let command = try await owner.say("!bookmarks", in: room)
        let second = try MatrixBotProcess(world: world)
        try await second.run { bot in
          let events = try await owner.waitForMessages(in: room) { $0.contains { $0.replyTo == command } }
          #expect(events.filter { $0.replyTo == command }.count == 1)
        }
      }
    }
  }
}
