import Foundation

/// `/_fake/attachments`: the files `attachment.php` serves, and posts that show them.
extension AdminAPI {
  /// `POST /_fake/attachments`: one file, from one of `image` (a name of `FakeImages`), `base64` with `contentType`,
  /// or `sample` (`FakeAttachmentSample`); `id` to choose its number; `post` to add a post showing it.
  struct NewAttachment: Decodable {
    struct Post: Decodable {
      var thread: Int
      var author: UserReference
      var body: String?
    }
    var image: String?
    var base64: String?
    var contentType: String?
    var sample: String?
    var id: Int?
    var post: Post?
  }

  struct AddedAttachment: Encodable {
    var attachmentID: Int
    var postID: Int?
  }

  func attachmentRoute(method: String, path: String, body: Data) async throws -> Reply {
    switch method {
    case "POST" where path == "/_fake/attachments":
      let request = try JSONDecoder().decode(NewAttachment.self, from: body)
      let file = try Self.file(of: request)
      if let post = request.post {
        let author = try await userID(post.author)
        if let id = request.id { await state.addAttachment(bytes: file.bytes, contentType: file.contentType, id: id) }
        let added: (postID: Int, attachmentID: Int)
        if let id = request.id {
          let separator = (post.body ?? "").isEmpty ? "" : "\n"
          let postID = try await state.addPost(
            thread: post.thread, author: author,
            body: "\(post.body ?? "")\(separator)[img]attachment.php?attachmentid=\(id)[/img]")
          added = (postID, id)
        } else {
          added = try await state.addPost(
            thread: post.thread, author: author, body: post.body ?? "", attachment: file.bytes,
            contentType: file.contentType)
        }
        return try ok(AddedAttachment(attachmentID: added.attachmentID, postID: added.postID))
      }
      let id = await state.addAttachment(bytes: file.bytes, contentType: file.contentType, id: request.id)
      return try ok(AddedAttachment(attachmentID: id))
    case "DELETE":
      guard let id = Int(path.dropFirst("/_fake/attachments/".count)), await state.removeAttachment(id) else {
        throw FakeForumError.invalidArgument("no such attachment")
      }
      return try ok(["result": "deleted"])
    default:
      return Reply(status: 404, body: Data(#"{"error":"no such admin endpoint"}"#.utf8))
    }
  }

  private static func file(of request: NewAttachment) throws -> (bytes: [UInt8], contentType: String) {
    if let name = request.image {
      guard let file = FakeImages.file(named: name) else { throw FakeForumError.invalidArgument("no image \(name)") }
      return file
    }
    if let encoded = request.base64 {
      guard let data = Data(base64Encoded: encoded) else { throw FakeForumError.invalidArgument("bad base64") }
      return (Array(data), request.contentType ?? "application/octet-stream")
    }
    if let name = request.sample {
      guard let sample = FakeAttachmentSample(rawValue: name) else {
        throw FakeForumError.invalidArgument("unknown sample \(name)")
      }
      return (sample.bytes, sample.contentType)
    }
    throw FakeForumError.invalidArgument("give image, base64 or sample")
  }
}
