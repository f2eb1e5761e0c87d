import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import Testing

extension MatrixIntegrationTests.PeopleChain {
  @Suite("invites and membership", .serialized)
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
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          try await owner.kick(world.botAccount.userID, from: room, reason: "go away")
          #expect(
            try await eventually(every: .milliseconds(100)) {
              try await bot.engine.roomSettings.settings(room: bot.room(room)).isPaused
            })
          #expect(
            bot.membershipChanges.contains(
              MembershipChange(
                transport: bot.transport.name, room: room, kind: .kicked, by: owner.userID, reason: "go away")))
          #expect(!bot.transport.joinedRooms.contains(room))
        }
      }
    }

    // The sync filter leaves the bot's own events out of the timeline (see `MatrixSyncFilter`); a leave the bot's
    // account made itself must still reach it, through the left room's state.
    @Test("a leave by the bot's own account elsewhere is noted")
    func ownLeaveNoted() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await world.botAccount.call("POST", ["rooms", room, "leave"], body: [:])
          #expect(try await eventually(every: .milliseconds(100)) { !bot.transport.joinedRooms.contains(room) })
          #expect(
            bot.membershipChanges.contains {
              $0.room == room && $0.kind == .left && $0.by == world.botAccount.userID
            })
        }
      }
    }

    // While the bot sends, its syncs leave its own events out and a room it left with nothing else new drops out of
    // the answer altogether; after the busy spell `/joined_rooms` must catch the leave (see
    // `MatrixTransport.syncLoop`). The sends go on for several busy syncs after the leave, so one of them, not a full
    // sync, is the first answer past it.
    @Test("a leave by the bot's own account while it sends is noted once the sending stops")
    func ownLeaveWhileSendingNoted() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let busyRoom = try await bot.joinedRoom(owner: owner, name: "busy room")
          let leftRoom = try await bot.joinedRoom(owner: owner, name: "room left elsewhere")
          // About four busy syncs: they come 2 s apart while the bot sends into plain rooms.
          let sendUntil = ContinuousClock.now + .seconds(8)
          var sent = 0
          while ContinuousClock.now < sendUntil {
            _ = try await bot.transport.send(
              OutgoingMessage(.answer(CommandAnswer("line \(sent + 1) of a long answer"))), to: busyRoom,
              idempotencyKey: UUID().uuidString)
            sent += 1
            if sent == 10 { try await world.botAccount.call("POST", ["rooms", leftRoom, "leave"], body: [:]) }
          }
          #expect(bot.transport.joinedRooms.contains(leftRoom), "the leave showed while the bot was still sending")
          #expect(
            try await eventually(every: .milliseconds(100)) { !bot.transport.joinedRooms.contains(leftRoom) },
            "\(sent) sends; the leave was never noted")
          #expect(bot.transport.joinedRooms.contains(busyRoom))
          #expect(
            bot.membershipChanges.contains {
              $0.room == leftRoom && $0.kind == .left && $0.by == world.botAccount.userID
            })
        }
      }
    }
  }
}
