import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import FakeForum
import ForumModel
import Foundation
import Testing

@testable import MatrixTransport

/// A relay's pictures follow it after the relay is sent; a stop (or a crash) before they went out must not lose them.
@Suite(
  "Matrix: pictures left waiting at a stop", .enabled(if: SynapseEnvironment.isAvailable, SynapseEnvironment.skipReason)
)
struct MatrixPendingPicturesLiveTests {
  /// A forum that takes its time over an attachment (until cancelled) or gives the desk at once.
  struct Forum: ForumAttachmentSource {
    var stalls: Bool
    func attachment(id: String, maxBytes: Int) async throws(ForumAttachmentFailure) -> [UInt8] {
      guard stalls else { return FakeImages.desk }
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        throw .unavailable(detail: "stopped")
      }
      throw .unavailable(detail: "slept")
    }
  }

  static func transport(_ account: MatrixHuman, store: InMemoryTransportStateStore, stalls: Bool) -> MatrixTransport {
    MatrixTransport(
      configuration: MatrixTransportConfiguration(
        homeserver: SynapseEnvironment.url!, userID: account.userID, password: account.password,
        allowedInviters: ["localhost"], syncTimeoutSeconds: 2),
      stateStore: store, logger: .quiet(), forumAttachments: Forum(stalls: stalls))
  }

  @Test("a relay's picture still waiting at a stop follows it after the next start, once, with no 'not shown' edit")
  func pictureSurvivesAStop() async throws {
    let botAccount = try await MatrixHuman.register("bot")
    let owner = try await MatrixHuman.register("owner")
    let store = InMemoryTransportStateStore()
    let relay = PostRelay(
      address: PostAddress(threadID: "1", postID: "2", index: 1), threadTitle: "Post your desk", author: "a",
      date: nil, link: "https://forums.somethingawful.com/showthread.php?goto=post&postid=2",
      threadLink: "https://forums.somethingawful.com/showthread.php?threadid=1",
      body: [
        .text("My desk: "),
        .attachment(id: "70001", url: "https://forums.somethingawful.com/attachment.php?attachmentid=70001"),
      ], excerptLength: 400)
    var message = OutgoingMessage(.post(relay))
    message.pictures = .inline

    let first = Self.transport(botAccount, store: store, stalls: true)
    var room = ""
    var relayID = ""
    try await withRunningServices([first]) {
      try await waitUntil("the transport connected", timeout: .seconds(60), every: .milliseconds(50)) {
        if case .connected = first.status { return true }
        return false
      }
      room = try await owner.createRoom(name: "desks", invite: [botAccount.userID])
      try await waitUntil("the bot joined", every: .milliseconds(50)) { first.joinedRooms.contains(room) }
      relayID = try await first.send(message, to: room, idempotencyKey: "relay-desk").id
      // The picture is on its way (the forum stalls) when the transport stops.
      try await Task.sleep(for: .milliseconds(300))
    }
    #expect(try await store.value(for: MatrixStateKey.pendingPictures) != nil, "kept for the next start")

    let second = Self.transport(botAccount, store: store, stalls: false)
    try await withRunningServices([second]) {
      let events = try await owner.waitForMessages(in: room) { events in
        events.contains { $0.sender == botAccount.userID && $0.msgtype == "m.image" }
      }
      let fromBot = events.filter { $0.sender == botAccount.userID }
      let pictures = fromBot.filter { $0.msgtype == "m.image" }
      #expect(pictures.count == 1)
      #expect(pictures.first?.replyTo == relayID)
      #expect(!fromBot.contains { $0.replaces == relayID }, "no edit saying the picture is not shown")
      try await waitUntil("the job forgotten", every: .milliseconds(50)) {
        try await store.value(for: MatrixStateKey.pendingPictures) == nil
      }
    }
  }
}
