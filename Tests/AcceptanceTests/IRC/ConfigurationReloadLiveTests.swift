import AwfulBotIRCTestKit
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import Foundation
import Testing

/// Reload on SIGHUP (issue 27) as an operator does it: `awfulbot run` on the test IRC network, the config file edited,
/// `kill -HUP`. A channel added is joined and gets relays, a channel removed is parted, the channel left alone sees
/// no quit and no rejoin, and a config that does not validate changes nothing while `status` says it was refused.
extension IRCLiveTests {
  @Suite("reload on SIGHUP: channels joined and parted live, an invalid config changes nothing", .serialized)
  struct ConfigurationReloadLive {
    @Test("add a channel and a room, remove another: relays follow, the untouched channel never notices")
    func channelsFollowTheConfig() async throws {
      let environment = try IRCTestEnvironment.required
      let keep = IRCTestEnvironment.unique("#keep-")
      let drop = IRCTestEnvironment.unique("#drop-")
      let added = IRCTestEnvironment.unique("#new-")
      let thread = "thread:\(TwoServiceBot.thread)"
      let bot = try await TwoServiceBot.launch(channel: keep) { irc, channel in
        var irc = irc
        irc["channels"] = [channel, drop]
        return (
          [irc],
          [
            ["transport": "irc", "room": channel, "subscriptions": [thread]],
            ["transport": "irc", "room": drop, "subscriptions": [thread]],
          ]
        )
      }
      let watcher = try await IRCTestClient.connect(nick: IRCTestEnvironment.unique("w"), environment: environment)
      do {
        try await watcher.join(drop)
        try await watcher.join(added)
        let nick = bot.nick
        let first = try await bot.postAndReadOnIRC("Before the reload \(IRCTestEnvironment.unique(""))")
        #expect(first.parameters.first?.lowercased() == keep.lowercased())
        _ = try await watcher.waitFor("the first relay in \(drop)", timeout: .seconds(30)) {
          $0.nick == nick && $0.parameters.first?.lowercased() == drop.lowercased()
        }
        let beforeReload = await bot.observer.mark()
        let watcherMark = await watcher.mark()

        try bot.reload { config in
          var transports = config["transports"] as! [[String: Any]]
          transports[0]["channels"] = [keep, added]
          config["transports"] = transports
          // The operator forgets the dropped channel's room: its subscription stays, so the room is paused.
          config["rooms"] = [
            ["transport": "irc", "room": keep, "subscriptions": [thread]],
            ["transport": "irc", "room": added, "subscriptions": [thread]],
            ["transport": "irc", "room": drop, "subscriptions": [thread]],
          ]
        }
        _ = try await watcher.waitFor("the bot parts \(drop)", from: watcherMark, timeout: .seconds(20)) {
          $0.command == "PART" && $0.nick == nick && $0.parameters.first?.lowercased() == drop.lowercased()
        }
        _ = try await watcher.waitFor("the bot joins \(added)", from: watcherMark, timeout: .seconds(20)) {
          $0.command == "JOIN" && $0.nick == nick && $0.parameters.first?.lowercased() == added.lowercased()
        }
        let applied = try await eventually(timeout: .seconds(10), every: .milliseconds(200)) {
          !bot.logLines(containing: "configuration reloaded").isEmpty
        }
        #expect(applied, "log:\n\(bot.logTail(40))")
        #expect(!bot.logLines(containing: "transport reconfigured", "leaving \(drop)").isEmpty, "\(bot.logTail(40))")
        #expect(!bot.logLines(containing: "configured room added", added).isEmpty, "\(bot.logTail(40))")
        #expect(bot.logLines(containing: "needs a restart").isEmpty, "\(bot.logTail(40))")
        #expect(
          !bot.logLines(containing: "room paused: the config no longer names it", drop.lowercased()).isEmpty,
          "\(bot.logTail(40))")

        let text = "After the reload \(IRCTestEnvironment.unique(""))"
        let watcherAfter = await watcher.mark()
        let relay = try await bot.postAndReadOnIRC(text)
        #expect(relay.parameters.first?.lowercased() == keep.lowercased())
        _ = try await watcher.waitFor("the relay in \(added)", from: watcherAfter, timeout: .seconds(30)) {
          $0.nick == nick && $0.parameters.first?.lowercased() == added.lowercased() && $0.text.contains(text)
        }
        // Give a relay to the parted channel time to show up, were the bot to rejoin it. Waited out, not
        // synchronised: the bot runs in its own process, and a room the reload paused holds its posts instead of
        // queueing them, so no outbox state or barrier line marks "nothing was sent there".
        try await Task.sleep(for: .seconds(2))
        let toDrop = await watcher.lines.dropFirst(watcherAfter).filter {
          $0.nick == nick && $0.parameters.first?.lowercased() == drop.lowercased()
        }
        #expect(toDrop.isEmpty, "the parted channel gets nothing: \(toDrop)")

        // The untouched channel saw no QUIT, PART or JOIN from the bot since before the reload.
        let churn = await bot.observer.lines.dropFirst(beforeReload).filter {
          $0.nick == nick && ["QUIT", "PART", "JOIN"].contains($0.command)
        }
        #expect(churn.isEmpty, "\(keep) saw \(churn)")

        // A config that does not validate: nothing changes, the log names the problem, status says it was refused.
        let refusedMark = await bot.observer.mark()
        try bot.reload { config in
          config["polling"] = ["bookmarksSeconds": 1]
          var transports = config["transports"] as! [[String: Any]]
          transports[0]["channels"] = [added]
          config["transports"] = transports
        }
        let refused = try await eventually(timeout: .seconds(10), every: .milliseconds(200)) {
          !bot.logLines(containing: "configuration reload refused", "polling.bookmarksSeconds").isEmpty
        }
        #expect(refused, "log:\n\(bot.logTail(40))")
        let status = try await bot.status()
        let daemon = status["daemon"] as? [String: Any]
        let stamp = daemon?["configuration"] as? [String: Any]
        #expect(
          stamp?["refusedProblems"] as? [String] == ["polling.bookmarksSeconds: must be at least 5 seconds, got 1.0"])
        let still = "Still relayed after a refused reload \(IRCTestEnvironment.unique(""))"
        let stillRelay = try await bot.postAndReadOnIRC(still)
        #expect(stillRelay.parameters.first?.lowercased() == keep.lowercased())
        let churnAfter = await bot.observer.lines.dropFirst(refusedMark).filter {
          $0.nick == nick && ["QUIT", "PART", "JOIN"].contains($0.command)
        }
        #expect(churnAfter.isEmpty, "a refused config parts nothing: \(churnAfter)")

        // The channel back in the config: joined, resumed, and what was held for it arrives as one digest.
        let backMark = await watcher.mark()
        try bot.reload { config in
          config["polling"] = ["bookmarksSeconds": 5, "announcementsSeconds": 3600, "forumsSeconds": 3600]
          var transports = config["transports"] as! [[String: Any]]
          transports[0]["channels"] = [keep, added, drop]
          config["transports"] = transports
        }
        let digest = try await watcher.waitFor("the held posts in \(drop)", from: backMark, timeout: .seconds(30)) {
          ["PRIVMSG", "NOTICE"].contains($0.command) && $0.nick == nick
            && $0.parameters.first?.lowercased() == drop.lowercased()
        }
        print("\(drop) after it is back: \(digest.text)")
        #expect(digest.text.hasPrefix("While this room was paused: 2 new posts in 1 thread"))
        #expect(!bot.logLines(containing: "room resumed: the config names it again").isEmpty, "\(bot.logTail(40))")
        #expect(bot.logLines(containing: "dead letter").isEmpty, "nothing dead-lettered: \(bot.logTail(40))")
        let operatorView = bot.log.split(separator: "\n").filter {
          $0.contains("configur") || $0.contains("reload") || $0.contains("joined") || $0.contains("room")
        }
        print("what the operator reads:\n" + operatorView.joined(separator: "\n"))
      } catch {
        await watcher.quit()
        await bot.stop()
        throw error
      }
      await watcher.quit()
      await bot.stop()
    }

    @Test(
      "a Matrix room added to the transport's rooms and to rooms[] is joined and relayed to, IRC untouched",
      .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason))
    func matrixRoomJoinedLive() async throws {
      let account = try await MatrixHuman.register("reloadbot")
      let human = try await MatrixHuman.register("reloader")
      // Public, so that the bot can join it when its config names it (it declines invites from people the config does
      // not allow).
      let room = try await human.createRoom(
        name: "added by a reload",
        initialState: [["type": "m.room.join_rules", "state_key": "", "content": ["join_rule": "public"]]])
      let thread = "thread:\(TwoServiceBot.thread)"
      let matrix: [String: Any] = [
        "type": "matrix", "name": "matrix", "homeserver": SynapseEnvironment.url!.absoluteString,
        "userID": account.userID, "encryption": ["enabled": false],
      ]
      let bot = try await TwoServiceBot.launch(
        channel: IRCTestEnvironment.unique("#stay-"), secrets: ["AWFULBOT_MATRIX_PASSWORD": account.password]
      ) { irc, channel in
        ([irc, matrix], [["transport": "irc", "room": channel, "subscriptions": [thread]]])
      }
      do {
        #expect(try await human.membership(of: account.userID, in: room) == nil)
        let beforeReload = await bot.observer.mark()
        try bot.reload { config in
          var transports = config["transports"] as! [[String: Any]]
          transports[1]["rooms"] = [room]
          config["transports"] = transports
          config["rooms"] =
            (config["rooms"] as! [[String: Any]]) + [
              ["transport": "matrix", "room": room, "subscriptions": [thread]]
            ]
        }
        let joined = try await human.waitForMembership(of: account.userID, in: room, toBe: "join")
        #expect(joined == "join", "log:\n\(bot.logTail(30))")
        // Joined at once, or at sign-in when the reload came while the transport was still signing in.
        #expect(
          !(bot.logLines(containing: "transport reconfigured", "joined \(room)")
            + bot.logLines(containing: "transport reconfigured", "will join \(room) at sign-in")).isEmpty,
          "\(bot.logTail(30))")

        let text = "Relayed to the room a reload added \(IRCTestEnvironment.unique(""))"
        _ = try await bot.postAndReadOnIRC(text)
        let messages = try await human.waitForMessages(in: room, timeout: .seconds(30)) { events in
          events.contains { $0.sender == account.userID && $0.content["body"]?.stringValue?.contains(text) == true }
        }
        #expect(
          messages.filter { $0.sender == account.userID && $0.content["body"]?.stringValue?.contains(text) == true }
            .count == 1, "\(messages.map(\.content))")
        let churn = await bot.observer.lines.dropFirst(beforeReload).filter {
          $0.nick == bot.nick && ["QUIT", "PART", "JOIN"].contains($0.command)
        }
        #expect(churn.isEmpty, "IRC saw \(churn)")
      } catch {
        await bot.stop()
        throw error
      }
      await bot.stop()
    }
  }
}
