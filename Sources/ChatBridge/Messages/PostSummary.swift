/// Posts of one thread told as a count instead of one by one (summary mode, or the rest after a replay cap).
package struct PostSummary: Sendable, Hashable, Codable {
  package var threadTitle: String
  package var threadLink: String
  /// How many new posts this message counts (an edited burst counts every post so far).
  package var count: Int
  /// Authors in posting order (repeats allowed; renderers list each once).
  package var authors: [String]
  package var latestAuthor: String?
  /// The newest post counted.
  package var latestLink: String
  /// True for the line after single posts reached the room's replay cap ("N more new posts in …").
  package var afterReplayCap: Bool

  package init(
    threadTitle: String, threadLink: String, count: Int, authors: [String], latestAuthor: String?,
    latestLink: String, afterReplayCap: Bool
  ) {
    self.threadTitle = threadTitle
    self.threadLink = threadLink
    self.count = count
    self.authors = authors
    self.latestAuthor = latestAuthor
    self.latestLink = latestLink
    self.afterReplayCap = afterReplayCap
  }
}
