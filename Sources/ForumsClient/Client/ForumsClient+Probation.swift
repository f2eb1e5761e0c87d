import AwfulScraping
import ForumModel
import Foundation

extension ForumsClient {
  /// Records the probation a page showed (nil: the page had no banner), logging when it starts, changes or ends.
  /// Only pages that carry the forum's page chrome are noted: thread lists, thread pages, private-message pages and
  /// the reply forms.
  func note(_ seen: Probation?) {
    guard seen != probation else { return }
    if let seen {
      logger.notice(
        "the forum account is on probation: it can read but not post",
        metadata: ["until": "\(seen.untilRaw ?? "unknown")", "banner": "\(seen.message)"])
    } else {
      logger.notice("the forum account is no longer on probation")
    }
    probation = seen
  }

  /// A form page that carries the probation banner: posting would be refused, so nothing is posted.
  func refuseOnProbation(_ formPage: HTMLDocument) throws {
    let seen = PageScrapers.probation(formPage, timeZone: configuration.timeZone)
    note(seen)
    if let seen { throw ForumsClientError.probation(message: seen.message) }
  }
}
