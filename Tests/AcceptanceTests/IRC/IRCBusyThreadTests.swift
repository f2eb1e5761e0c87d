import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import Foundation
import Logging
import Testing

@testable import IRCTransport

extension IRCLiveTests {
  /// A busy thread on a network with ordinary flood limits: the default flood settings and the compact relay style
  /// must keep up with 30 posts a minute, in order, without falling behind.
  @Suite("busy thread with default flood limits", .serialized)
  struct BusyThread {
    static let postsPerMinute = 30.0
    static let posts = 20

    @Test("30 posts a minute arrive in order, one line each, without a growing lag")
    func keepsUp() async throws {
      let (environment, channel, nick, tester) = try await liveChannel("#busy-")
      var configuration = botConfiguration(environment, nick: nick, channels: [channel])
      let defaults = IRCTransportConfiguration(name: "irc", host: "h", tls: false, nick: "n")
      configuration.floodBurst = defaults.floodBurst
      configuration.floodIntervalSeconds = defaults.floodIntervalSeconds
      #expect(configuration.relayStyle == .compact)
      let transport = try IRCTransport(configuration: configuration, logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await tester.waitForJoin(of: nick)
      let room = RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel))
      try await forum.engine.subscriptions.watch(threadID: "3600001", room: room)

      // The forum gets a post every 2 s; the bot polls every 2 s, as a busy deployment would at most.
      let mark = await tester.mark()
      let interval = Duration.seconds(60 / Self.postsPerMinute)
      let started = ContinuousClock.now
      var postIDs: [Int] = []
      var postedAt: [Int: ContinuousClock.Instant] = [:]
      for number in 1...Self.posts {
        let id = try await forum.server.state.addPost(thread: 3_600_001, author: 1002, body: "busy post \(number)")
        postIDs.append(id)
        postedAt[id] = ContinuousClock.now
        await forum.engine.polling.poll(.bookmarks)
        try await Task.sleep(until: started + interval * number, clock: .continuous)
      }
      await forum.engine.polling.poll(.bookmarks)
      let lastID = try #require(postIDs.last)
      let last = try await tester.waitFor("the last post", from: mark, timeout: .seconds(60)) {
        $0.nick == nick && $0.text.contains("#post\(lastID)")
      }
      let relayed = await tester.lines[mark...].filter { $0.nick == nick && $0.command == "NOTICE" }
      let order = relayed.compactMap { line in postIDs.first { line.text.contains("#post\($0)") } }
      #expect(order == postIDs, "every post once, in the order it was made")
      #expect(relayed.count == Self.posts, "one line per post")
      let lag = last.at - (postedAt[lastID] ?? last.at)
      let minutes = Double((last.at - started).components.seconds) / 60
      print(
        "busy thread: \(Self.posts) posts at \(Int(Self.postsPerMinute))/min delivered in order; "
          + "\(String(format: "%.1f", Double(Self.posts) / max(minutes, 0.01))) posts/min; lag at the end \(lag)")
      // A poll interval plus the flood bucket's pace: well under the 2 s between posts once the burst is spent.
      #expect(lag < .seconds(6), "the relay keeps up (lag \(lag))")
      await bot.stop()
      await forum.stop()
    }
  }
}
