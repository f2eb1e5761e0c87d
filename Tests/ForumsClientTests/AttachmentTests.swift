import FakeForum
import ForumModel
import Foundation
import Testing

@testable import ForumsClient

/// The forum's own attachments (issue 44): `attachment.php?attachmentid=N` read through the session, in one request
/// when logged in, logging in again when the forum forgot the session, and a page instead of the file a failure that
/// says why. Against the emulator, which serves attachments to logged-in sessions only.
@Suite("Forum attachments", .serialized)
struct AttachmentTests {
  @Test("a logged-in session gets the attachment's bytes in one forum request, with its cookies")
  func oneRequest() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      let id = await forum.state.addAttachment(bytes: FakeImages.desk, contentType: "image/png")
      await forum.state.clearRequests()
      let bytes = try await forum.client.attachment(id: String(id), maxBytes: 1 << 20)
      #expect(bytes == FakeImages.desk)
      let requests = await forum.state.requests()
      #expect(requests.count == 1, "\(requests.map(\.path))")
      #expect(requests.first?.path == "/attachment.php")
      #expect(requests.first?.queryValue("attachmentid") == String(id))
      #expect(requests.first?.cookieNames.contains("sessionhash") == true, "asked with the session")
    }
  }

  @Test("without a session the client logs in first; when the forum forgot it, it logs in again and asks once more")
  func logsIn() async throws {
    try await withFakeForum { forum in
      let bytes = try await forum.client.attachment(id: "70002", maxBytes: 1 << 20)
      #expect(bytes == FakeImages.cat, "the demo seed's cat")
      #expect(await forum.state.requests().map(\.path) == ["/account.php", "/index.php", "/attachment.php"])
      await forum.state.invalidateSessions()
      await forum.state.clearRequests()
      #expect(try await forum.client.attachment(id: "70001", maxBytes: 1 << 20) == FakeImages.desk)
      #expect(
        await forum.state.requests().map(\.path) == [
          "/attachment.php", "/account.php", "/index.php", "/attachment.php",
        ], "the must-register page is a logged-out answer: one new login, one more ask")
    }
  }

  @Test("the emulator gives nobody without a session the file: the must-register page, the cookie cleared")
  func loggedOutGetsThePage() async throws {
    try await withFakeForum { forum in
      // The transport alone: no login first.
      let response = try await forum.client.transport.send(.get("attachment.php", [("attachmentid", "70001")]))
      #expect(String(decoding: response.body, as: UTF8.self).contains("you must be a registered forums member"))
      #expect(!response.body.starts(with: FakeImages.desk.prefix(8)))
      #expect(response.mediaType == "text/html")
      #expect(response.headers["set-cookie"].contains { $0.hasPrefix("bbuserid=deleted") })
    }
  }

  @Test("an unknown or deleted attachment is the forum's error page: a refusal with its sentence, not a login")
  func unknown() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      let error = await clientError { _ = try await forum.client.attachment(id: "99999", maxBytes: 1 << 20) }
      guard case .attachmentRefused(let id, let reason)? = error else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(id == "99999")
      #expect(reason.contains("Invalid Attachment specified"), "\(reason)")
      #expect(await forum.state.requests().map(\.path) == ["/attachment.php"], "no login: the session was fine")
      #expect(error?.description.hasPrefix("The forum did not give attachment 99999:") == true)
    }
  }

  @Test("a page served as the attachment is a refusal, never bytes; an empty answer too")
  func page() async throws {
    try await withFakeForum { forum in
      let pageID = await forum.state.addAttachment(
        bytes: FakeAttachmentSample.page.bytes, contentType: FakeAttachmentSample.page.contentType)
      let error = await clientError { _ = try await forum.client.attachment(id: String(pageID), maxBytes: 1 << 20) }
      guard case .attachmentRefused(_, let reason)? = error else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(reason == "it answered with a web page instead of the file.")
      // Markup served with a picture's type is a page all the same.
      let disguised = await forum.state.addAttachment(
        bytes: Array("\n <html><body>Log in</body></html>".utf8), contentType: "image/png")
      let second = await clientError { _ = try await forum.client.attachment(id: String(disguised), maxBytes: 1 << 20) }
      guard case .attachmentRefused? = second else {
        Issue.record("\(String(describing: second))")
        return
      }
      let empty = await forum.state.addAttachment(bytes: [], contentType: "image/png")
      let third = await clientError { _ = try await forum.client.attachment(id: String(empty), maxBytes: 1 << 20) }
      #expect(third == .attachmentRefused(id: String(empty), reason: "the forum sent no bytes."))
    }
  }

  @Test("more bytes than allowed are refused while reading, once, and the session is kept")
  func capped() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      let error = await clientError { _ = try await forum.client.attachment(id: "70001", maxBytes: 1000) }
      #expect(error == .bodyTooLarge(limit: 1000))
      #expect(await forum.state.requests().count == 1, "not retried: a large file will be large again")
      #expect(await forum.client.hasSession())
    }
  }

  @Test("a number that is no attachment number is never asked for", arguments: ["", "0", "-1", "12a", "99999999999"])
  func junk(id: String) async throws {
    try await withFakeForum { forum in
      let error = await clientError { _ = try await forum.client.attachment(id: id, maxBytes: 1 << 20) }
      guard case .attachmentRefused? = error else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(await forum.state.requests().isEmpty)
    }
  }

  @Test("a wall in front of attachment.php is a wall: no login, not asked again at once")
  func wall() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.clearRequests()
      await forum.state.setFault(.wall(WallFault(kind: .challenge, paths: ["/attachment.php"])))
      let error = await clientError { _ = try await forum.client.attachment(id: "70001", maxBytes: 1 << 20) }
      #expect(error?.wall != nil, "\(String(describing: error))")
      #expect(await forum.state.requests().map(\.path) == ["/attachment.php"])
    }
  }
}
