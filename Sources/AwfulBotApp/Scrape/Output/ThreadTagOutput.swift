import AwfulScraping

/// `{"id","imageURL","imageName"}`: a thread tag (post icon).
struct ThreadTagOutput: Encodable, Sendable {
  @JSONNullable var id: String? = nil
  var imageURL: String
  var imageName: String

  init(_ tag: ThreadTag) {
    id = tag.id
    imageURL = tag.imageURL
    imageName = tag.imageName
  }
}
