import AwfulBotTestKit
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import MatrixTransport

/// The forum's own attachments among a relay's pictures (issue 44): picked out with their number, said beside their
/// link when not shown, shown only where a forum session can be asked for them, in the same per-post budget.
@Suite("forum attachments among a relay's pictures")
struct MatrixAttachmentPictureTests {
  static let attachment = RichText.attachment(
    id: "70001", url: "https://forums.somethingawful.com/attachment.php?attachmentid=70001")

  /// A forum that refuses every attachment: only its presence matters here.
  struct RefusingSource: ForumAttachmentSource {
    func attachment(id: String, maxBytes: Int) async throws(ForumAttachmentFailure) -> [UInt8] {
      throw .refused(detail: "not here")
    }
  }

  @Test("an attachment is a picture of the post with its number, in order, and its link takes the reason")
  func picturesAndReasons() {
    let body: [RichText] = [
      .text("look"), .image(url: "https://i.example/a.png"), .quote(author: "x", postID: nil, [Self.attachment]),
    ]
    #expect(
      MatrixTransport.pictures(in: body) == [
        .init(url: "https://i.example/a.png", thumbnail: false),
        .init(
          url: "https://forums.somethingawful.com/attachment.php?attachmentid=70001", thumbnail: false,
          attachmentID: "70001"),
      ])
    let reasons = [
      "https://forums.somethingawful.com/attachment.php?attachmentid=70001": ImageFetcher.Failure.forumRefused("x")
        .roomReason
    ]
    #expect(
      MatrixTransport.annotated(body, notShown: reasons) == [
        .text("look"), .image(url: "https://i.example/a.png"),
        .quote(
          author: "x", postID: nil, [Self.attachment, .text(" (picture not shown: the forum would not give it)")]),
      ])
    #expect(ImageFetcher.Failure.forumUnavailable("x").roomReason == "the forum could not be reached")
    #expect(ImageFetcher.Failure.forumRefused("x").isRemembered, "a refusal is remembered like any failed picture")
    #expect(!ImageFetcher.Failure.forumUnavailable("x").isRemembered, "a forum that cannot be asked now may be later")
    #expect(
      MatrixTransport.imageCacheKey(attachment: "70001", encrypted: true) == "image:encrypted:attachment:70001")
  }

  @Test("a room's pictures are encrypted as the bot knows the room when it uploads them, not when it planned them")
  func encryptionLearnedAfterThePlan() {
    let transport = MatrixTransport.unstarted()
    #expect(!transport.picturesEncrypted(in: "!r:localhost"))
    // The relay's send looked the room up (just after a start the plan could not know it): its pictures follow it
    // encrypted, never as a plain upload a link would open.
    transport.state.withLock { _ = $0.rooms.directory.encrypted.insert("!r:localhost") }
    #expect(transport.picturesEncrypted(in: "!r:localhost"))
  }

  @Test("without a forum to ask, attachments stay links and are not planned; with one, they are")
  func plan() {
    let relay = PostRelay(
      address: PostAddress(threadID: "1", postID: "2", index: 1), threadTitle: "t", author: "a", date: nil,
      link: "https://forums.somethingawful.com/showthread.php?goto=post&postid=2",
      threadLink: "https://forums.somethingawful.com/showthread.php?threadid=1",
      body: [.image(url: "https://i.example/a.png"), Self.attachment], excerptLength: 400)
    let without = MatrixTransport.unstarted().picturePlan(of: relay, display: .inline, room: "!r:localhost")
    #expect(without.pictures.map(\.url) == ["https://i.example/a.png"])
    let with = MatrixTransport(
      configuration: MatrixTransport.unstarted().configuration, stateStore: InMemoryTransportStateStore(),
      logger: .quiet(), forumAttachments: RefusingSource()
    ).picturePlan(of: relay, display: .inline, room: "!r:localhost")
    #expect(with.pictures.map(\.attachmentID) == [nil, "70001"])
  }
}
