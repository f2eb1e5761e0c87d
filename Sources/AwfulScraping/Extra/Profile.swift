import Foundation

/// A member's profile (`member.php?action=getinfo`).
package struct Profile: Sendable, Hashable, Codable {
  package var author: PostAuthor
  /// What the member "claims to be" (`porpoise`, `male`, `female`).
  package var gender: String?
  /// The "about" paragraph's inner HTML.
  package var aboutHTML: String?
  package var canReceivePrivateMessages: Bool
  /// Contact names; nil when the profile says "not set".
  package var aimName: String?
  package var icqName: String?
  package var yahooName: String?
  package var homepage: String?
  package var pictureURL: String?
  package var postCount: Int?
  /// Posts per day as the forum prints it ("0.88").
  package var postRate: String?
  package var lastPostDate: Date?
  package var lastPostDateRaw: String?
  package var location: String?
  package var interests: String?
  package var occupation: String?

  package init(
    author: PostAuthor, gender: String? = nil, aboutHTML: String? = nil, canReceivePrivateMessages: Bool = false,
    aimName: String? = nil, icqName: String? = nil, yahooName: String? = nil, homepage: String? = nil,
    pictureURL: String? = nil, postCount: Int? = nil, postRate: String? = nil, lastPostDate: Date? = nil,
    lastPostDateRaw: String? = nil, location: String? = nil, interests: String? = nil, occupation: String? = nil
  ) {
    self.author = author
    self.gender = gender
    self.aboutHTML = aboutHTML
    self.canReceivePrivateMessages = canReceivePrivateMessages
    self.aimName = aimName
    self.icqName = icqName
    self.yahooName = yahooName
    self.homepage = homepage
    self.pictureURL = pictureURL
    self.postCount = postCount
    self.postRate = postRate
    self.lastPostDate = lastPostDate
    self.lastPostDateRaw = lastPostDateRaw
    self.location = location
    self.interests = interests
    self.occupation = occupation
  }
}
