import AwfulBotApp
import AwfulBotMatrixTestKit
import AwfulBotTestKit
import FakeForum
import Foundation
import Testing

extension OpsMatrixTests {
  /// Issue 44, the wiring: `awfulbot run` builds the forum client before the transports and hands the Matrix transport
  /// the forum's attachments through it (`TransportBuildContext.forumAttachments`). A post with an attachment reaches
  /// the configured room as the relay and the picture, fetched in one `attachment.php` request with the session.
  @Test("run: a post with a forum attachment shows the picture in the configured room, read with the bot's session")
  func attachmentFromConfiguration() async throws {
    try await OpsMatrixHarness.with { harness in
      let application = try harness.application()
      let transport = try application.matrixTransport
      try await harness.running(application) {
        // A generous wait: on a loaded two-core machine the homeserver took over 30 s to let the bot in.
        #expect(
          try await eventually(timeout: .seconds(90), every: .milliseconds(100)) {
            transport.joinedRooms.contains(harness.room)
          })
        #expect(
          try await eventually(timeout: .seconds(30), every: .milliseconds(100)) {
            try await application.database.read { try $0.threadCount() } > 0
          })
        await harness.forum.state.clearRequests()
        _ = try await harness.forum.state.addPost(
          thread: Self.devThread, author: 1002, body: "The cat: [img]attachment.php?attachmentid=70002[/img]")
        let events = try await harness.owner.waitForMessages(in: harness.room) { events in
          events.contains { $0.sender == harness.bot.userID && $0.msgtype == "m.image" }
        }.filter { $0.sender == harness.bot.userID }
        let picture = try #require(events.first { $0.msgtype == "m.image" })
        #expect(picture.content["info"]?["mimetype"] == "image/gif")
        #expect(try await harness.owner.download(try #require(picture.content["url"]?.stringValue)) == FakeImages.cat)
        let asked = await harness.forum.state.requests().filter { $0.path == "/attachment.php" }
        #expect(asked.count == 1 && asked.allSatisfy { $0.cookieNames.contains("sessionhash") }, "\(asked)")
      }
    }
  }
}
