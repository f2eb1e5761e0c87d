import Synchronization

/// Shows progress through the first full bookmarks fetch of a new database (an account with thousands of bookmarks
/// takes dozens of politely spaced requests). Later polls read the same pages quietly: only the first fetch is
/// something a person starting the bot waits for.
package final class FirstFetchProgress: Sendable {
  private let reporter: ProgressReporter
  private let isActive: Mutex<Bool>

  /// - Parameter isFirstFetch: true when the database knows no thread yet.
  package init(isFirstFetch: Bool, reporter: ProgressReporter = ProgressReporter()) {
    self.reporter = reporter
    self.isActive = Mutex(isFirstFetch)
  }

  /// The engine's `bookmarksPageRead` hook.
  package func pageRead(_ page: Int, total: Int?, isLast: Bool) {
    let shouldReport = isActive.withLock { active -> Bool in
      guard active else { return false }
      if isLast { active = false }
      return true
    }
    guard shouldReport else { return }
    reporter.update("first bookmarks fetch, pages read", done: page, total: total)
    if isLast { reporter.finish() }
  }
}
