import AwfulScraping

/// `{"current","total"}`: the page's position in its list.
struct PageNavigationOutput: Encodable, Sendable {
  var current: Int
  var total: Int

  init(_ page: PageNavigation) {
    current = page.current
    total = page.total
  }
}
