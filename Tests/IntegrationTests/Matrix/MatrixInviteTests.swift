import AwfulBotTestKit
import BotCore
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests {
  @Suite("invites and membership")
  struct Invites {
    @Test("an invite from an allowed user is accepted; others are declined")
    func inviteJoinOrDecline() async throws {
      try await MatrixTestWorld.with { world in
        let friend = try await MatrixHuman.register("friend")
        let stranger = try await MatrixHuman.register("stranger")
        let bot = try MatrixBotProcess(world: world) { $0.allowedInviters = [friend.userID] }
        try await bot.run { bot in
          let welcome = try await friend.createRoom(invite: [world.botAccount.userID])
          let unwelcome = try await stranger.createRoom(invite: [world.botAccount.userID])
          #expect(try await friend.waitForMembership(of: world.botAccount.userID, in: welcome, toBe: "join") == "join")
          #expect(
            try await stranger.waitForMembership(of: world.botAccount.userID, in: unwelcome, toBe: "leave") == "leave")
          try await bot.waitUntilJoined(welcome)
          #expect(!bot.transport.joinedRooms.contains(unwelcome))
        }
      }
    }

    @Test("a kick is noted and pauses the room's subscriptions")
    func kickPauses() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await bot.engine.subscribe(room: bot.room(room), to: .bookmarks)
          try await owner.kick(world.botAccount.userID, from: room, reason: "go away")
          let deadline = ContinuousClock.now + .seconds(20)
          while try await !bot.engine.settings(room: bot.room(room)).isPaused, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
          }
          #expect(try await bot.engine.settings(room: bot.room(room)).isPaused)
          #expect(
            bot.membershipChanges.contains(
              MembershipChange(
                transport: bot.transport.name, room: room, kind: .kicked, by: owner.userID, reason: "go away")))
          #expect(!bot.transport.joinedRooms.contains(room))
        }
      }
    }
  }
}
