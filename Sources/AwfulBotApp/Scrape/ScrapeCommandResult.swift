/// What `awfulbot scrape` prints and how it exits.
package struct ScrapeCommandResult: Sendable, Hashable {
  /// Exit status: the page was scraped.
  package static let success: Int32 = 0
  /// Exit status: the file could not be read, or the page is not the kind asked for (or no known kind).
  package static let failure: Int32 = 1
  /// Exit status: the page is one of the forum's error pages; its typed error is on standard output.
  package static let forumError: Int32 = 2

  /// JSON for standard output (empty on failure).
  package var output: String
  /// A message for standard error (empty on success).
  package var errorMessage: String
  package var exitCode: Int32

  package init(output: String, errorMessage: String = "", exitCode: Int32) {
    self.output = output
    self.errorMessage = errorMessage
    self.exitCode = exitCode
  }
}
