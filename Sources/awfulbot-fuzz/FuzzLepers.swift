import ForumModel
import Foundation

@testable import AwfulScraping

/// The `lepers` target: a page read as the Leper's Colony and as a profile, with what the readers promise checked:
/// page numbers in range, ids that are short runs of digits, a probation length only on a probation.
enum FuzzLepers {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let document = try? HTMLDocument(data: Data(bytes), url: FuzzTarget.url) else { return }
    if let result = try? LepersColonyScraper().read(document) {
      if let navigation = result.page.navigation {
        check(
          0 <= navigation.current && navigation.current <= navigation.total
            && navigation.total <= Clamp.forumNumber, "page navigation out of range: \(navigation)")
      }
      for punishment in result.page.punishments {
        for id in [punishment.postID, punishment.subject.id, punishment.requester.id, punishment.approver?.id] {
          guard let id else { continue }
          check(isForumID(id), "an id that is not 1 to 18 digits: \(Array(id.utf8))")
        }
        check(
          punishment.probationLength == nil || punishment.sentence == .probation,
          "a probation length on a \(punishment.sentence)")
        _ = plainText(punishment.reason)
      }
    }
    if let user = try? ProfileUserScraper().scrape(document) {
      check(user.id.map(isForumID) == true, "a profile's id that is not 1 to 18 digits")
    }
  }

  private static func isForumID(_ id: String) -> Bool {
    (1...18).contains(id.utf8.count) && id.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
  }

  private static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
  }
}
