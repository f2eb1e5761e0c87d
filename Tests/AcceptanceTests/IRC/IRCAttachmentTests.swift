import AwfulBotIRCTestKit
import AwfulBotTestKit
import BotCore
import ChatBridge
import FakeForum
import Foundation
import Logging
import Testing

@testable import IRCTransport

extension IRCLiveTests {
  @Suite("the forum's own attachments on IRC", .serialized)
  struct Attachments {
    /// Issue 44: a post showing one of the forum's attachments (`attachment.php`, relative in the post) reaches the
    /// channel with the attachment's absolute link on the forum; IRC shows links, so nothing is fetched.
    @Test("a post with a forum attachment: the channel reads the absolute link, the forum is not asked for the file")
    func absoluteLink() async throws {
      let (environment, channel, nick, watcher) = try await liveChannel("#attach-")
      let transport = try IRCTransport(
        configuration: botConfiguration(environment, nick: nick, channels: [channel]), logger: Logger.quiet())
      let forum = try await ForumSide.start(transport: transport)
      let bot = RunningIRCTransport(transport, with: [forum.dispatcher(for: transport)])
      try await watcher.waitForJoin(of: nick)
      try await forum.engine.subscriptions.watch(
        threadID: "3600003", room: RoomRef(transport: "irc", room: IRCCaseMapping.fold(channel)))
      await forum.engine.polling.poll(.bookmarks)
      let mark = await watcher.mark()
      _ = try await forum.server.state.addPost(
        thread: 3_600_003, author: 1002, body: "My desk: [img]attachment.php?attachmentid=70001[/img]")
      await forum.engine.polling.poll(.bookmarks)
      let link = forum.client.baseURL.absoluteString + "attachment.php?attachmentid=70001"
      let line = try await watcher.waitFor("the relay with the attachment", from: mark, timeout: .seconds(10)) {
        $0.nick == nick && $0.text.contains("My desk:")
      }
      #expect(line.text.contains("[image] \(link)"), "\(line.text)")
      #expect(await forum.server.state.requests().filter { $0.path == "/attachment.php" }.isEmpty)

      await bot.stop()
      await forum.stop()
      await watcher.quit()
    }
  }
}
