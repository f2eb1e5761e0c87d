import AwfulScraping

/// The user sidebar of a post or announcement.
struct AuthorOutput: Encodable, Sendable {
  var name: String
  @JSONNullable var id: String? = nil
  var isOriginalPoster: Bool
  var isAdministrator: Bool
  var isModerator: Bool
  @JSONNullable var regdate: String? = nil
  @JSONNullable var customTitleHTML: String? = nil
  var additionalClasses: [String]

  init(_ author: PostAuthor) {
    name = author.name
    id = author.id
    isOriginalPoster = author.isOriginalPoster
    isAdministrator = author.isAdministrator
    isModerator = author.isModerator
    regdate = ScrapeJSON.timestamp(author.regdate)
    customTitleHTML = author.customTitleHTML
    additionalClasses = author.additionalClasses
  }
}
