import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

/// Posts that change on the forum after they were relayed (issue 34): noticed on the page the bot reads anyway for new
/// posts, followed where the transport can (an edit of the relay, the relay taken back), never twice.
@Suite("edits and deletions followed")
struct RelayChangesTests {
  let matrixLike = ChatCapabilities(edits: true, replies: true, reactions: true, removals: true)

  /// A watched thread whose posts 3 and 4 were relayed and delivered (receipts 1 and 2).
  private func relayed(_ capabilities: ChatCapabilities) async throws -> (EngineHarness, [Post]) {
    let h = try EngineHarness(transport: RecordingTransport(capabilities: capabilities))
    h.forum.addThread("1", posts: 2)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room)
    await h.cycle()
    h.clock.advance(by: 60)
    let posts = [
      h.forum.addPost(to: "1", author: "alice", text: "first version"),
      h.forum.addPost(to: "1", author: "bob", text: "a post that will go"),
    ]
    await h.cycle()
    #expect(h.transport.sent.count == 2)
    return (h, posts)
  }

  private func body(_ message: OutgoingMessage) -> [RichText]? {
    if case .post(let relay) = message.content { return relay.body }
    return nil
  }

  @Test("an edit seen on the page read for new posts replaces the relay once; a deletion takes it back once")
  func editAndDeletion() async throws {
    let (h, posts) = try await relayed(matrixLike)
    h.forum.editPost(posts[0].id, in: "1", text: "second version")
    h.forum.deletePost(posts[1].id, in: "1")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "carol", text: "news")
    await h.cycle()

    let sent = Array(h.transport.sent.dropFirst(2))
    let edit = try #require(sent.first { $0.message.replaces != nil })
    #expect(edit.message.replaces == "receipt-1", "the edit names the relay of the edited post")
    #expect(body(edit.message) == [.text("second version")])
    #expect(sent.contains { body($0.message) == [.text("news")] }, "the new post is relayed as well")
    #expect(
      h.transport.redactions == [.init(room: "!room", messageID: "receipt-2", reason: "deleted on the forum")])

    // The page is read again for the next post: nothing is edited or taken back twice.
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "dave", text: "more news")
    await h.cycle()
    #expect(h.transport.sent.filter { $0.message.replaces != nil }.count == 1)
    #expect(h.transport.redactions.count == 1)
    // A second edit is a second version: one more edit.
    h.forum.editPost(posts[0].id, in: "1", text: "third version")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "erin", text: "even more")
    await h.cycle()
    let edits = h.transport.sent.filter { $0.message.replaces != nil }
    #expect(edits.map { body($0.message) } == [[.text("second version")], [.text("third version")]])
    #expect(try await h.engine.statusReports.health().deadLetters == 0)
  }

  @Test("a relay still waiting goes out as the post now reads; one of a deleted post is not sent")
  func notSentYet() async throws {
    let h = try EngineHarness(transport: RecordingTransport(capabilities: matrixLike))
    h.forum.addThread("1", posts: 2)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room)
    await h.cycle()
    h.clock.advance(by: 60)
    let kept = h.forum.addPost(to: "1", author: "alice", text: "draft")
    let gone = h.forum.addPost(to: "1", author: "bob", text: "oops")
    await h.engine.polling.poll(.bookmarks)
    h.forum.editPost(kept.id, in: "1", text: "final")
    h.forum.deletePost(gone.id, in: "1")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "carol", text: "later")
    await h.cycle()
    #expect(h.transport.sent.map { body($0.message) } == [[.text("final")], [.text("later")]])
    #expect(h.transport.sent.allSatisfy { $0.message.replaces == nil })
    #expect(h.transport.redactions.isEmpty)
    let dropped = try #require(try await h.rows().first { $0.postID == gone.id })
    #expect(dropped.state == .failed)
    #expect(dropped.lastError == "not sent: the post was deleted on the forum first")
  }

  @Test("a transport without edits or removals (IRC, the console) gets nothing for either")
  func plainTransports() async throws {
    let (h, posts) = try await relayed(.plainText)
    h.forum.editPost(posts[0].id, in: "1", text: "second version")
    h.forum.deletePost(posts[1].id, in: "1")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "carol", text: "news")
    await h.cycle()
    #expect(h.transport.sent.map { body($0.message) }.last == [.text("news")])
    #expect(h.transport.sent.count == 3)
    #expect(h.transport.redactions.isEmpty)
  }

  @Test(
    "a room of a transport without edits whose editNotices setting is on gets the edit once, as an edit; others none")
  func editNotices() async throws {
    let (h, posts) = try await relayed(ChatCapabilities())
    try await h.engine.roomSettings.update(room: h.room) { $0.editNotices = true }
    h.forum.editPost(posts[0].id, in: "1", text: "second version")
    h.forum.deletePost(posts[1].id, in: "1")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "carol", text: "news")
    await h.cycle()
    let edits = h.transport.sent.filter { $0.message.replaces != nil }
    #expect(edits.map { body($0.message) } == [[.text("second version")]])
    #expect(edits.first?.message.replaces == "receipt-1")
    #expect(h.transport.redactions.isEmpty, "a deletion is not followed where nothing can be taken back")
    h.clock.advance(by: 60)
    h.forum.addPost(to: "1", author: "dave", text: "more news")
    await h.cycle()
    #expect(h.transport.sent.filter { $0.message.replaces != nil }.count == 1, "once")

    let (other, otherPosts) = try await relayed(ChatCapabilities())
    other.forum.editPost(otherPosts[0].id, in: "1", text: "second version")
    other.clock.advance(by: 60)
    other.forum.addPost(to: "1", author: "carol", text: "news")
    await other.cycle()
    #expect(other.transport.sent.allSatisfy { $0.message.replaces == nil }, "a room that did not ask hears nothing")
  }
}
