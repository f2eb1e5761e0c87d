import AwfulScraping

/// `{"forumID","name","depth"}`: one breadcrumb, the group first.
struct BreadcrumbOutput: Encodable, Sendable {
  var forumID: String
  var name: String
  var depth: Int

  init(_ crumb: Breadcrumb) {
    forumID = crumb.forumID
    name = crumb.name
    depth = crumb.depth
  }
}
